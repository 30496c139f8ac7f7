-- __intrinsic may only be used in the prelude.
-- ==
-- error: T012

def main = __intrinsic "map"
