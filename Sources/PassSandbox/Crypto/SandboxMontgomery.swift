/// Modular exponentiation by Montgomery multiplication for one odd modulus: the work of
/// every RSA operation and primality test.
///
/// Numbers in Montgomery form are `x·R mod m` with `R = 2^(64·limbCount)`; multiplying two
/// of them (`montgomeryProduct`) divides by `R` with shifts instead of a long division.
struct SandboxMontgomery: Sendable {
    /// The modulus's limbs, least significant first (odd, top limb not zero).
    let modulus: [UInt64]
    /// `-m⁻¹ mod 2^64`.
    private let inverseOfLowestLimb: UInt64
    /// `R² mod m`: multiplying by it brings a number into Montgomery form.
    private let rSquared: [UInt64]
    /// The modulus as a big integer.
    let modulusValue: SandboxBigUInt

    /// A context for the odd modulus `modulus` (greater than 1).
    init(modulus: SandboxBigUInt) {
        precondition(modulus.isOdd && modulus > SandboxBigUInt(1), "Montgomery arithmetic needs an odd modulus above 1")
        modulusValue = modulus
        self.modulus = modulus.limbs
        // Newton's iteration doubles the correct low bits of the inverse each step (1 → 64).
        let lowest = modulus.limbs[0]
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- lowest &* inverse) }
        inverseOfLowestLimb = 0 &- inverse
        let r = SandboxBigUInt(1) << (64 * modulus.limbs.count)
        rSquared = Self.padded((r * r) % modulus, to: modulus.limbs.count)
    }

    var limbCount: Int { modulus.count }

    /// `base^exponent mod m`.
    func power(_ base: SandboxBigUInt, _ exponent: SandboxBigUInt) -> SandboxBigUInt {
        let reduced = base < modulusValue ? base : base % modulusValue
        if exponent.isZero { return SandboxBigUInt(1) % modulusValue }
        let baseForm = toMontgomery(reduced)
        // A 4-bit fixed window: the powers base^0 … base^15 in Montgomery form.
        var table = [[UInt64]](repeating: [], count: 16)
        table[0] = toMontgomery(SandboxBigUInt(1))
        table[1] = baseForm
        for index in 2..<16 { table[index] = montgomeryProduct(table[index - 1], baseForm) }

        var result = table[0]
        var started = false
        var bitIndex = ((exponent.bitWidth + 3) / 4) * 4 - 1
        while bitIndex >= 0 {
            var window = 0
            for offset in 0..<4 { window = window << 1 | (exponent.bit(bitIndex - offset) ? 1 : 0) }
            if started {
                for _ in 0..<4 { result = montgomeryProduct(result, result) }
                if window != 0 { result = montgomeryProduct(result, table[window]) }
            } else if window != 0 {
                result = table[window]
                started = true
            }
            bitIndex -= 4
        }
        return fromMontgomery(result)
    }

    /// `x·R mod m` for `x < m`.
    func toMontgomery(_ value: SandboxBigUInt) -> [UInt64] {
        montgomeryProduct(Self.padded(value, to: limbCount), rSquared)
    }

    /// `x` from its Montgomery form.
    func fromMontgomery(_ form: [UInt64]) -> SandboxBigUInt {
        var one = [UInt64](repeating: 0, count: limbCount)
        one[0] = 1
        return SandboxBigUInt(limbs: montgomeryProduct(form, one))
    }

    /// `a·b·R⁻¹ mod m` for `a, b < m` given as exactly `limbCount` limbs (the CIOS method:
    /// multiplication and reduction interleaved, limb by limb).
    func montgomeryProduct(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = limbCount
        var t = [UInt64](repeating: 0, count: n + 2)
        modulus.withUnsafeBufferPointer { m in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    t.withUnsafeMutableBufferPointer { t in
                        for i in 0..<n {
                            let bi = b[i]
                            var carry: UInt64 = 0
                            for j in 0..<n {
                                (carry, t[j]) = SandboxBigUInt.multiplyAdd(a[j], bi, t[j], carry)
                            }
                            var overflow: Bool
                            (t[n], overflow) = t[n].addingReportingOverflow(carry)
                            t[n + 1] = overflow ? 1 : 0

                            let factor = t[0] &* inverseOfLowestLimb
                            carry = SandboxBigUInt.multiplyAdd(factor, m[0], t[0], 0).high
                            for j in 1..<n {
                                (carry, t[j - 1]) = SandboxBigUInt.multiplyAdd(factor, m[j], t[j], carry)
                            }
                            (t[n - 1], overflow) = t[n].addingReportingOverflow(carry)
                            t[n] = t[n + 1] &+ (overflow ? 1 : 0)
                        }
                    }
                }
            }
        }
        // t < 2m: one conditional subtraction brings it below m.
        if t[n] != 0 || SandboxBigUInt.compare(t[0..<n], modulus[...]) >= 0 {
            var borrow: UInt64 = 0
            for index in 0..<n {
                let (difference, underflow1) = t[index].subtractingReportingOverflow(modulus[index])
                let (result, underflow2) = difference.subtractingReportingOverflow(borrow)
                t[index] = result
                borrow = (underflow1 ? 1 : 0) + (underflow2 ? 1 : 0)
            }
        }
        return Array(t[0..<n])
    }

    /// `value`'s limbs with zero limbs added on top up to `count`.
    static func padded(_ value: SandboxBigUInt, to count: Int) -> [UInt64] {
        value.limbs + [UInt64](repeating: 0, count: max(0, count - value.limbs.count))
    }
}
