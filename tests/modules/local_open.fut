-- Local open `M.(e)` evaluates e with M's names in scope.
-- ==
-- input { 2.0f32 } output { 5.0f32 1.4142135f32 }

module V = {
  def (+.) (a: f32) (b: f32) = a + b + 1
  def two : f32 = 2
}

def main (x: f32) : (f32, f32) = (V.(x +. two), f32.(sqrt x))
