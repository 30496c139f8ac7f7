def main (x: i32) = if x > 0 1 else 2
