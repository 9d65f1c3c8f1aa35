/// The greatest common divisor of `a` and `b` (Euclid), for keeping the exact
/// fractions of rates and steps reduced; `a` when `b` is 0.
func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return x
}
