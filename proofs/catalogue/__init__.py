"""The catalogue: one module per theorem family (named after it; its Coq counterpart in the matching
``coq/Catalogue_*.v``), the vocabularies the families share, the sources cited, the bounds for the
other parts, and the runtime monitors."""
