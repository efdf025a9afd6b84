"""Game pieces: cards, tiles with identities, and the grid boards are laid on."""
