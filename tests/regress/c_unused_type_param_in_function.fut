-- A type parameter of a function must occur in the types of its value
-- parameters; `'unused` occurs nowhere, so the definition is rejected.
-- ==
-- error: T011|T006|unused

def keep 'unused (x: i32) : i32 = x

def main (x: i32) = keep x
