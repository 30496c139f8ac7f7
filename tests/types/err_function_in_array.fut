-- Functions may not be array elements.
-- ==
-- error: T007

def id (x: i32) = x
def main = [id, id]
