"""``croupier explore``: rounds the engine has never seen, judged live, every mismatch shrunk.

``rounds`` draws vectors (Hypothesis strategies shared with the test suite); ``search`` plays
them on the engine with the runner's own comparison and shrinks each distinct mismatch.
"""
