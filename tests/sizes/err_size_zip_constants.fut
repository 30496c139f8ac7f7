-- Zipping arrays whose constant sizes differ is rejected at compile time.
-- ==
-- error: S001

def main = zip (iota 3) (iota 4)
