"""Compiled kernels: @njit(cache=True) loops on contiguous float64 that never check or raise."""
