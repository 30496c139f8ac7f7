-- gamma, lgamma, erf, erfc functions of the f64 module, compared with C99 math results.

-- ==
-- entry: f64_gamma
-- input { 0.5f64 } output { 1.7724538509055159f64 }
-- input { 5.0f64 } output { 24.0f64 }
-- input { -1.5f64 } output { 2.3632718012073544f64 }

entry f64_gamma (x: f64): f64 = f64.gamma x

-- ==
-- entry: f64_lgamma
-- input { 0.5f64 } output { 0.5723649429247004f64 }
-- input { 10.0f64 } output { 12.801827480081467f64 }
-- input { -1.5f64 } output { 0.8600470153764812f64 }

entry f64_lgamma (x: f64): f64 = f64.lgamma x

-- ==
-- entry: f64_erf
-- input { 0.5f64 } output { 0.5204998778130465f64 }
-- input { -1.0f64 } output { -0.8427007929497149f64 }
-- input { 2.0f64 } output { 0.9953222650189527f64 }

entry f64_erf (x: f64): f64 = f64.erf x

-- ==
-- entry: f64_erfc
-- input { 0.5f64 } output { 0.4795001221869535f64 }
-- input { -1.0f64 } output { 1.842700792949715f64 }
-- input { 3.0f64 } output { 2.2090496998585438e-05f64 }

entry f64_erfc (x: f64): f64 = f64.erfc x
