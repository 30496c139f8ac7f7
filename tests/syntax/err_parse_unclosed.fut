-- An unclosed parenthesis is a syntax error.
-- ==
-- error: P001

def main (x: i32) = (x + 1
