-- sqrt, cbrt, exp, log, log2, log10, log1p, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh functions of the f32 module, compared with C99 math results.

-- ==
-- entry: f32_sqrt
-- input { 2.0f32 } output { 1.41421354f32 }
-- input { 0.0f32 } output { 0.0f32 }
-- input { 0.0f32 } output { 0.0f32 }

entry f32_sqrt (x: f32): f32 = f32.sqrt x

-- ==
-- entry: f32_cbrt
-- input { 27.0f32 } output { 3.0f32 }
-- input { -8.0f32 } output { -2.0f32 }
-- input { 2.0f32 } output { 1.25992107f32 }

entry f32_cbrt (x: f32): f32 = f32.cbrt x

-- ==
-- entry: f32_exp
-- input { 1.0f32 } output { 2.71828175f32 }
-- input { -2.5f32 } output { 0.0820849985f32 }
-- input { 0.0f32 } output { 1.0f32 }

entry f32_exp (x: f32): f32 = f32.exp x

-- ==
-- entry: f32_log
-- input { 10.0f32 } output { 2.30258512f32 }
-- input { 0.5f32 } output { -0.693147182f32 }
-- input { 1.0f32 } output { 0.0f32 }

entry f32_log (x: f32): f32 = f32.log x

-- ==
-- entry: f32_log2
-- input { 8.0f32 } output { 3.0f32 }
-- input { 3.0f32 } output { 1.58496249f32 }
-- input { 0.125f32 } output { -3.0f32 }

entry f32_log2 (x: f32): f32 = f32.log2 x

-- ==
-- entry: f32_log10
-- input { 1000.0f32 } output { 3.0f32 }
-- input { 2.0f32 } output { 0.30103001f32 }
-- input { 0.00999999978f32 } output { -2.0f32 }

entry f32_log10 (x: f32): f32 = f32.log10 x

-- ==
-- entry: f32_log1p
-- input { 1.00000001e-10f32 } output { 1.00000001e-10f32 }
-- input { 1.0f32 } output { 0.693147182f32 }
-- input { -0.5f32 } output { -0.693147182f32 }

entry f32_log1p (x: f32): f32 = f32.log1p x

-- ==
-- entry: f32_sin
-- input { 0.5f32 } output { 0.47942555f32 }
-- input { -2.0f32 } output { -0.909297407f32 }
-- input { 3.0f32 } output { 0.141120002f32 }

entry f32_sin (x: f32): f32 = f32.sin x

-- ==
-- entry: f32_cos
-- input { 0.5f32 } output { 0.87758255f32 }
-- input { -2.0f32 } output { -0.416146845f32 }
-- input { 3.0f32 } output { -0.989992499f32 }

entry f32_cos (x: f32): f32 = f32.cos x

-- ==
-- entry: f32_tan
-- input { 0.5f32 } output { 0.546302497f32 }
-- input { -1.0f32 } output { -1.55740774f32 }
-- input { 1.20000005f32 } output { 2.5721519f32 }

entry f32_tan (x: f32): f32 = f32.tan x

-- ==
-- entry: f32_asin
-- input { 0.5f32 } output { 0.52359879f32 }
-- input { -1.0f32 } output { -1.57079637f32 }
-- input { 0.25f32 } output { 0.252680242f32 }

entry f32_asin (x: f32): f32 = f32.asin x

-- ==
-- entry: f32_acos
-- input { 0.5f32 } output { 1.04719758f32 }
-- input { -1.0f32 } output { 3.14159274f32 }
-- input { 0.25f32 } output { 1.31811607f32 }

entry f32_acos (x: f32): f32 = f32.acos x

-- ==
-- entry: f32_atan
-- input { 1.0f32 } output { 0.785398185f32 }
-- input { -3.0f32 } output { -1.24904573f32 }
-- input { 0.25f32 } output { 0.244978666f32 }

entry f32_atan (x: f32): f32 = f32.atan x

-- ==
-- entry: f32_sinh
-- input { 1.0f32 } output { 1.17520118f32 }
-- input { -0.5f32 } output { -0.521095276f32 }
-- input { 2.0f32 } output { 3.62686038f32 }

entry f32_sinh (x: f32): f32 = f32.sinh x

-- ==
-- entry: f32_cosh
-- input { 1.0f32 } output { 1.54308069f32 }
-- input { -0.5f32 } output { 1.12762594f32 }
-- input { 2.0f32 } output { 3.76219559f32 }

entry f32_cosh (x: f32): f32 = f32.cosh x

-- ==
-- entry: f32_tanh
-- input { 1.0f32 } output { 0.761594176f32 }
-- input { -0.5f32 } output { -0.462117165f32 }
-- input { 2.0f32 } output { 0.964027584f32 }

entry f32_tanh (x: f32): f32 = f32.tanh x

-- ==
-- entry: f32_asinh
-- input { 1.0f32 } output { 0.881373584f32 }
-- input { -0.5f32 } output { -0.481211811f32 }
-- input { 2.0f32 } output { 1.44363546f32 }

entry f32_asinh (x: f32): f32 = f32.asinh x

-- ==
-- entry: f32_acosh
-- input { 1.0f32 } output { 0.0f32 }
-- input { 1.5f32 } output { 0.962423623f32 }
-- input { 10.0f32 } output { 2.99322295f32 }

entry f32_acosh (x: f32): f32 = f32.acosh x

-- ==
-- entry: f32_atanh
-- input { 0.5f32 } output { 0.549306154f32 }
-- input { -0.25f32 } output { -0.255412817f32 }
-- input { 0.899999976f32 } output { 1.47221935f32 }

entry f32_atanh (x: f32): f32 = f32.atanh x
