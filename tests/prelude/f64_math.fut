-- sqrt, cbrt, exp, log, log2, log10, log1p, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh functions of the f64 module, compared with C99 math results.

-- ==
-- entry: f64_sqrt
-- input { 2.0f64 } output { 1.4142135623730951f64 }
-- input { 0.0f64 } output { 0.0f64 }
-- input { 1.0e-300f64 } output { 1.0e-150f64 }

entry f64_sqrt (x: f64): f64 = f64.sqrt x

-- ==
-- entry: f64_cbrt
-- input { 27.0f64 } output { 3.0000000000000004f64 }
-- input { -8.0f64 } output { -2.0f64 }
-- input { 2.0f64 } output { 1.2599210498948734f64 }

entry f64_cbrt (x: f64): f64 = f64.cbrt x

-- ==
-- entry: f64_exp
-- input { 1.0f64 } output { 2.718281828459045f64 }
-- input { -2.5f64 } output { 0.0820849986238988f64 }
-- input { 0.0f64 } output { 1.0f64 }

entry f64_exp (x: f64): f64 = f64.exp x

-- ==
-- entry: f64_log
-- input { 10.0f64 } output { 2.302585092994046f64 }
-- input { 0.5f64 } output { -0.6931471805599453f64 }
-- input { 1.0f64 } output { 0.0f64 }

entry f64_log (x: f64): f64 = f64.log x

-- ==
-- entry: f64_log2
-- input { 8.0f64 } output { 3.0f64 }
-- input { 3.0f64 } output { 1.584962500721156f64 }
-- input { 0.125f64 } output { -3.0f64 }

entry f64_log2 (x: f64): f64 = f64.log2 x

-- ==
-- entry: f64_log10
-- input { 1000.0f64 } output { 3.0f64 }
-- input { 2.0f64 } output { 0.3010299956639812f64 }
-- input { 0.01f64 } output { -2.0f64 }

entry f64_log10 (x: f64): f64 = f64.log10 x

-- ==
-- entry: f64_log1p
-- input { 1.0e-10f64 } output { 9.999999999500001e-11f64 }
-- input { 1.0f64 } output { 0.6931471805599453f64 }
-- input { -0.5f64 } output { -0.6931471805599453f64 }

entry f64_log1p (x: f64): f64 = f64.log1p x

-- ==
-- entry: f64_sin
-- input { 0.5f64 } output { 0.479425538604203f64 }
-- input { -2.0f64 } output { -0.9092974268256817f64 }
-- input { 3.0f64 } output { 0.1411200080598672f64 }

entry f64_sin (x: f64): f64 = f64.sin x

-- ==
-- entry: f64_cos
-- input { 0.5f64 } output { 0.8775825618903728f64 }
-- input { -2.0f64 } output { -0.4161468365471424f64 }
-- input { 3.0f64 } output { -0.9899924966004454f64 }

entry f64_cos (x: f64): f64 = f64.cos x

-- ==
-- entry: f64_tan
-- input { 0.5f64 } output { 0.5463024898437905f64 }
-- input { -1.0f64 } output { -1.5574077246549023f64 }
-- input { 1.2f64 } output { 2.5721516221263188f64 }

entry f64_tan (x: f64): f64 = f64.tan x

-- ==
-- entry: f64_asin
-- input { 0.5f64 } output { 0.5235987755982989f64 }
-- input { -1.0f64 } output { -1.5707963267948966f64 }
-- input { 0.25f64 } output { 0.25268025514207865f64 }

entry f64_asin (x: f64): f64 = f64.asin x

-- ==
-- entry: f64_acos
-- input { 0.5f64 } output { 1.0471975511965979f64 }
-- input { -1.0f64 } output { 3.141592653589793f64 }
-- input { 0.25f64 } output { 1.318116071652818f64 }

entry f64_acos (x: f64): f64 = f64.acos x

-- ==
-- entry: f64_atan
-- input { 1.0f64 } output { 0.7853981633974483f64 }
-- input { -3.0f64 } output { -1.2490457723982544f64 }
-- input { 0.25f64 } output { 0.24497866312686414f64 }

entry f64_atan (x: f64): f64 = f64.atan x

-- ==
-- entry: f64_sinh
-- input { 1.0f64 } output { 1.1752011936438014f64 }
-- input { -0.5f64 } output { -0.5210953054937474f64 }
-- input { 2.0f64 } output { 3.626860407847019f64 }

entry f64_sinh (x: f64): f64 = f64.sinh x

-- ==
-- entry: f64_cosh
-- input { 1.0f64 } output { 1.5430806348152437f64 }
-- input { -0.5f64 } output { 1.1276259652063807f64 }
-- input { 2.0f64 } output { 3.7621956910836314f64 }

entry f64_cosh (x: f64): f64 = f64.cosh x

-- ==
-- entry: f64_tanh
-- input { 1.0f64 } output { 0.7615941559557649f64 }
-- input { -0.5f64 } output { -0.46211715726000974f64 }
-- input { 2.0f64 } output { 0.9640275800758169f64 }

entry f64_tanh (x: f64): f64 = f64.tanh x

-- ==
-- entry: f64_asinh
-- input { 1.0f64 } output { 0.881373587019543f64 }
-- input { -0.5f64 } output { -0.48121182505960347f64 }
-- input { 2.0f64 } output { 1.4436354751788103f64 }

entry f64_asinh (x: f64): f64 = f64.asinh x

-- ==
-- entry: f64_acosh
-- input { 1.0f64 } output { 0.0f64 }
-- input { 1.5f64 } output { 0.9624236501192069f64 }
-- input { 10.0f64 } output { 2.993222846126381f64 }

entry f64_acosh (x: f64): f64 = f64.acosh x

-- ==
-- entry: f64_atanh
-- input { 0.5f64 } output { 0.5493061443340548f64 }
-- input { -0.25f64 } output { -0.25541281188299536f64 }
-- input { 0.9f64 } output { 1.4722194895832204f64 }

entry f64_atanh (x: f64): f64 = f64.atanh x
