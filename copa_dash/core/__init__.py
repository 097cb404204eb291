"""Analysis core of copa-dash: numpy + numba only, no pandas, no dash."""
