"""The classical recognizer: a colour-difference finder, a rule-based pip counter and
gradient-histogram templates for taught faces. Kept beside the learned detector
(`vision/reader.py`) because that one does not yet read better on every held-out set
(docs/benchmarks.md); chosen with ``recognizer="classical"`` (`--recognizer classical`,
`[camera] recognizer`).
"""
