"""Slow, obviously-correct twins of the compiled kernels, for tests and benchmarks."""
