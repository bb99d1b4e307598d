"""Verifying the catalogue: each step's job for the engines, the certificates handed to the
independent checker (``checker``), the run of the whole catalogue, and the readable page."""
