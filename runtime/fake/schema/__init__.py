"""What the fake apiserver does to an object by its kind's schema before storing it: decoding
into the Go types (``decode``: pruning, ``omitempty``), a CRD's structural pruning (``pruning``),
``fieldValidation``, validation, and the route's field manager (``fieldmanagers``).
"""
