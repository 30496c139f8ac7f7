-- A module whose definition does not match its signature.
-- ==
-- error: T008

module m: {val x: i32} = {def x = 1f32}
def main = m.x
