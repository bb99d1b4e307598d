"""The language of the catalogue: formula objects (terms, sorts, binders), the interpreted functions
and feature-space constructions, and the walks that substitute and rewrite them."""
