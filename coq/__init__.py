"""The catalogue kernel-checked in Coq (see docs/coq.md).

``coq/*.v`` is the hand-written development (definitions, vector lemmas, the learners,
one file per theorem family); :mod:`coq.export` prints the catalogue's formula objects as
Coq statements; :mod:`coq.build` generates the statement and step files, compiles
everything with ``coqc`` (reusing compiled files when nothing changed) and reads ``Print
Assumptions`` for every theorem.
"""
