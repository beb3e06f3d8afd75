extension SandboxBigUInt {
    /// The greatest common divisor (Euclid).
    static func gcd(_ a: SandboxBigUInt, _ b: SandboxBigUInt) -> SandboxBigUInt {
        var (x, y) = (a, b)
        while !y.isZero { (x, y) = (y, x % y) }
        return x
    }

    /// `x` with `self·x ≡ 1 (mod modulus)`, or `nil` when none exists (extended Euclid; the
    /// coefficient is kept as a magnitude and a sign, since the type is unsigned).
    func inverse(modulo modulus: SandboxBigUInt) -> SandboxBigUInt? {
        guard modulus > SandboxBigUInt(1) else { return nil }
        var (remainder, nextRemainder) = (modulus, self % modulus)
        var (coefficient, nextCoefficient) = (
            (magnitude: SandboxBigUInt(), negative: false), (magnitude: SandboxBigUInt(1), negative: false)
        )
        while !nextRemainder.isZero {
            let (quotient, rest) = remainder.quotientAndRemainder(dividingBy: nextRemainder)
            // coefficient − quotient × nextCoefficient, with signs.
            let product = quotient * nextCoefficient.magnitude
            let updated: (magnitude: SandboxBigUInt, negative: Bool)
            if coefficient.negative != nextCoefficient.negative {
                updated = (coefficient.magnitude + product, coefficient.negative)
            } else if coefficient.magnitude >= product {
                updated = (coefficient.magnitude - product, coefficient.negative)
            } else {
                updated = (product - coefficient.magnitude, !coefficient.negative)
            }
            (remainder, nextRemainder) = (nextRemainder, rest)
            (coefficient, nextCoefficient) = (nextCoefficient, updated)
        }
        guard remainder == SandboxBigUInt(1) else { return nil }
        let reduced = coefficient.magnitude % modulus
        return coefficient.negative && !reduced.isZero ? modulus - reduced : reduced
    }

    /// The Miller–Rabin test of an odd number above 3 with each of `bases` (each in
    /// `2 … n−2`): `false` proves it composite, `true` after enough random bases means
    /// prime with overwhelming probability.
    func passesMillerRabin(bases: [SandboxBigUInt]) -> Bool {
        let context = SandboxMontgomery(modulus: self)
        let minusOne = self - SandboxBigUInt(1)
        var twos = 0
        while !minusOne.bit(twos) { twos += 1 }
        let oddPart = minusOne >> twos
        let one = context.toMontgomery(SandboxBigUInt(1))
        let minusOneForm = context.toMontgomery(minusOne)
        witnesses: for base in bases {
            var x = context.toMontgomery(context.power(base, oddPart))
            if x == one || x == minusOneForm { continue }
            for _ in 1..<max(twos, 1) {
                x = context.montgomeryProduct(x, x)
                if x == minusOneForm { continue witnesses }
                if x == one { return false }
            }
            return false
        }
        return true
    }
}

/// The primes below 20,000, for sieving prime candidates before the costly test.
enum SandboxSmallPrimes {
    static let all: [UInt64] = {
        let limit = 20_000
        var composite = [Bool](repeating: false, count: limit)
        var primes: [UInt64] = []
        for candidate in 2..<limit where !composite[candidate] {
            primes.append(UInt64(candidate))
            for multiple in stride(from: candidate * candidate, to: limit, by: candidate) { composite[multiple] = true }
        }
        return primes
    }()
}
