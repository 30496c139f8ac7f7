-- Decimal literals whose type is not otherwise determined default to f64.
-- ==
-- input {} output { 0.30000000000000004 }

def main = 0.1 + 0.2
