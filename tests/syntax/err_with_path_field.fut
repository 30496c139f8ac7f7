-- A field step of an update path must name a field of the record it reaches.
-- ==
-- error: T004

def main (r: {a: [3]i32}) = copy r with a[0].b = 1
