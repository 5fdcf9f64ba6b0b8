def subtract(a: float, b: float) -> float:
    return a - b
