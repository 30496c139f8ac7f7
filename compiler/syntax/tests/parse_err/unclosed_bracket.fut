def xs = [1, 2, 3
