"""The catalogue: one module per theorem family (named after it; its Coq counterpart in the matching
``coq/Catalogue_*.v``), the vocabularies the families share, the sources cited, the bounds for the
other parts, the runtime monitors, and the readable page."""
