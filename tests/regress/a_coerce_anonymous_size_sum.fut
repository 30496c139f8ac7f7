-- A coercion to a type with an anonymous size (`:> opt ([]i64)`) where
-- that size cannot be determined from the expression is ambiguous;
-- Futhark rejects it ("Ambiguous size ... anonymous size").
-- ==
-- error: S00[123]|T006|[Aa]mbiguous

type opt 't = #some t | #none

def pick (b: bool) (k: i64) =
  if b then #some (iota k) else #none :> opt ([]i64)

def main (b: bool) = pick b 3
