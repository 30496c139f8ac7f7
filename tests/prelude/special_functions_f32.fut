-- gamma, lgamma, erf, erfc functions of the f32 module, compared with C99 math results.

-- ==
-- entry: f32_gamma
-- input { 0.5f32 } output { 1.7724539f32 }
-- input { 5.0f32 } output { 24.0f32 }
-- input { -1.5f32 } output { 2.36327171f32 }

entry f32_gamma (x: f32): f32 = f32.gamma x

-- ==
-- entry: f32_lgamma
-- input { 0.5f32 } output { 0.572364926f32 }
-- input { 10.0f32 } output { 12.8018274f32 }
-- input { -1.5f32 } output { 0.860047042f32 }

entry f32_lgamma (x: f32): f32 = f32.lgamma x

-- ==
-- entry: f32_erf
-- input { 0.5f32 } output { 0.520499885f32 }
-- input { -1.0f32 } output { -0.842700779f32 }
-- input { 2.0f32 } output { 0.995322287f32 }

entry f32_erf (x: f32): f32 = f32.erf x

-- ==
-- entry: f32_erfc
-- input { 0.5f32 } output { 0.479500115f32 }
-- input { -1.0f32 } output { 1.84270084f32 }
-- input { 3.0f32 } output { 2.20904967e-05f32 }

entry f32_erfc (x: f32): f32 = f32.erfc x
