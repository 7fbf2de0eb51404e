"""Studies: many games played by agents, their results, and the figures drawn from them."""
