-- A polymorphic function used at several types.
-- ==
-- input { 1 true 2.5f32 } output { 1 true 2.5f32 }

def id 'a (x: a) : a = x

def main (a: i32) (b: bool) (c: f32) : (i32, bool, f32) = (id a, id b, id c)
