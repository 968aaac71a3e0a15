"""The store: the campaign folder (files, lock, atomic turns), verifiable dice, the order frame, and
who sees what (one door: `viewing.seen_by`). Imports nothing of gm above it."""
