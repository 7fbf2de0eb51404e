"""The API page: the OpenAPI document as a page of its own (``GET /api``), with no script.

Each endpoint with its body's fields and its answer, then every schema as a table; nothing
is fetched.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

__all__ = ["api_page"]


def api_page(document: dict[str, Any]) -> str:
    """The API's OpenAPI document as a page of its own: each endpoint with its body's fields
    and its answer, then every schema as a table (no script, nothing fetched)."""

    def e(text: str) -> str:  # escaped, `code` as code
        return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))

    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>mineshafted API</title><link rel='icon' href='data:,'>",
        "<link rel='stylesheet' href='/app.css'></head><body class='api'>",
        "<h1>mineshafted API</h1>",
        f"<p>{e(document['info'].get('description', ''))}</p>",
        "<p>The same document as OpenAPI JSON: <a href='/openapi.json'>/openapi.json</a>. "
        "Back to <a href='/'>the page</a>.</p>",
    ]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            parts.append(
                f"<section class='endpoint'><h2><code>{method.upper()} {e(path)}</code> "
                f"{e(operation.get('summary', ''))}</h2>"
                f"<p>{e(operation.get('description', ''))}</p>"
            )
            request = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if request:
                parts.append("<h3>Body</h3>" + _fields(request["schema"]))
            answers = operation.get("responses", {})
            for status, answer in answers.items():
                if status.startswith("2"):
                    found = answer.get("content", {}).get("application/json", {}).get("schema")
                    shown = _type(found) if found else "nothing"
                    parts.append(f"<p>Answer ({status}): {shown}.</p>")
            refusals = ", ".join(k for k in answers if not k.startswith("2"))
            if refusals:
                parts.append(f"<p>Refusals: {refusals}, each an {_type(_ref('ErrorOut'))}.</p>")
            parts.append("</section>")
    parts.append("<h2>Schemas</h2>")
    for name, found in document.get("components", {}).get("schemas", {}).items():
        parts.append(f"<h3 id='{e(name)}'>{e(name)}</h3>")
        if found.get("description"):
            parts.append(f"<p>{e(found['description'])}</p>")
        parts.append(_fields(found))
    parts.append("</body></html>")
    return "".join(parts)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _fields(schema: dict[str, Any]) -> str:
    """An object schema's properties as a table: name, type, what it is."""
    properties = schema.get("properties")
    if not properties:
        return f"<p>{_type(schema)}</p>"
    required = set(schema.get("required", ()))
    rows = "".join(
        f"<tr><td><code>{html.escape(name)}</code>{'' if name in required else ' (optional)'}"
        f"</td><td>{_type(field)}</td><td>{html.escape(field.get('description', ''))}</td></tr>"
        for name, field in properties.items()
    )
    return f"<table><tr><th>field</th><th>type</th><th>what</th></tr>{rows}</table>"


def _type(schema: dict[str, Any]) -> str:
    """A schema's type in a few words, a reference as a link to its table."""
    if "$ref" in schema:
        name = html.escape(schema["$ref"].rsplit("/", 1)[1])
        return f"<a href='#{name}'>{name}</a>"
    if "anyOf" in schema:
        return " or ".join(_type(option) for option in schema["anyOf"])
    if "enum" in schema:
        return " | ".join(html.escape(json.dumps(value)) for value in schema["enum"])
    if "const" in schema:
        return html.escape(json.dumps(schema["const"]))
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    if kind == "object" and "additionalProperties" in schema:
        return f"object of {_type(schema['additionalProperties'])}"
    return html.escape(str(kind))
