-- Evaluation of postfix programs for a stack machine whose instructions are a
-- sum type decoded from opcodes; `match` selects the action and the stack is
-- an array updated in place inside a `loop ... for ... in`.
-- ==
-- entry: eval
-- input { [0, 0, 1, 0, 3] [2.0, 3.0, 0.0, 4.0, 0.0] }
-- output { 20.0 }
-- input { [0, 0, 0, 3, 2, 5] [10.0, 2.0, 3.0, 0.0, 0.0, 0.0] }
-- output { -4.0 }
-- input { [0, 6, 3, 0, 7, 4] [3.0, 0.0, 0.0, 2.0, 0.0, 0.0] }
-- output { 0.2222222222222222 }
-- input { [0, 0, 8, 0, 0, 8, 1] [1.5, -2.0, 0.0, 7.0, 4.0, 0.0, 0.0] }
-- output { 8.5 }
-- input { [0] [42.0] }
-- output { 42.0 }

-- ==
-- entry: max_depth
-- input { [0, 0, 1, 0, 3] [2.0, 3.0, 0.0, 4.0, 0.0] }
-- output { 2i64 }
-- input { [0, 0, 0, 3, 2, 5] [10.0, 2.0, 3.0, 0.0, 0.0, 0.0] }
-- output { 3i64 }
-- input { [0, 6, 3, 0, 7, 4] [3.0, 0.0, 0.0, 2.0, 0.0, 0.0] }
-- output { 2i64 }
-- input { [0, 0, 8, 0, 0, 8, 1] [1.5, -2.0, 0.0, 7.0, 4.0, 0.0, 0.0] }
-- output { 3i64 }
-- input { [0] [42.0] }
-- output { 1i64 }

-- ==
-- entry: eval_many
-- input { [0, 6, 3, 0, 0, 3, 2, 0, 1] [1.0, 2.0, -3.0, 0.5] }
-- output { [0.0, 1.0, 16.0, 0.25] }

-- A stack machine over a sum type of instructions, evaluated with an
-- explicit stack array and a stack pointer.

type instr = #push f64 | #add | #sub | #mul | #div | #neg | #dup | #swap | #max

def decode (op: i32) (arg: f64) : instr =
  match op
  case 0 -> #push arg
  case 1 -> #add
  case 2 -> #sub
  case 3 -> #mul
  case 4 -> #div
  case 5 -> #neg
  case 6 -> #dup
  case 7 -> #swap
  case _ -> #max

def binop (i: instr) (a: f64) (b: f64) : f64 =
  match i
  case #add -> a + b
  case #sub -> a - b
  case #mul -> a * b
  case #div -> a / b
  case #max -> f64.max a b
  case _ -> f64.nan

-- Returns the top of the stack and the largest depth reached.
def exec [n] (prog: [n]instr) : (f64, i64) =
  let stack = replicate (n + 1) 0f64
  let (stack, sp, depth) =
    loop (stack, sp, depth) = (stack, 0i64, 0i64) for ins in prog do
      let (stack, sp) =
        match ins
        case #push v -> (stack with [sp] = v, sp + 1)
        case #neg -> (stack with [sp - 1] = -stack[sp - 1], sp)
        case #dup -> (stack with [sp] = stack[sp - 1], sp + 1)
        case #swap ->
          let a = stack[sp - 2]
          let b = stack[sp - 1]
          let stack[sp - 2] = b
          let stack[sp - 1] = a
          in (stack, sp)
        case op -> (stack with [sp - 2] = binop op stack[sp - 2] stack[sp - 1], sp - 1)
      in (stack, sp, i64.max depth sp)
  in (stack[sp - 1], depth)

entry eval [n] (ops: [n]i32) (args: [n]f64) : f64 = (exec (map2 decode ops args)).0

entry max_depth [n] (ops: [n]i32) (args: [n]f64) : i64 = (exec (map2 decode ops args)).1

-- One program, run for many values of x: the second push is the constant 2,
-- the fourth the constant 1, and the others push x.
entry eval_many [n] [k] (ops: [n]i32) (xs: [k]f64) : [k]f64 =
  let pushes = scan (+) 0 (map (\o -> i32.bool (o == 0)) ops)
  in map (\x ->
            let args = map2 (\o p -> if o != 0 then 0 else if p == 2 then 2 else if p == 4 then 1 else x) ops pushes
            in (exec (map2 decode ops args)).0) xs
