/// An unsigned integer of any size: enough arithmetic for RSA with 2048-bit (and larger)
/// keys, written out because the toolchain alone has no big integers on Linux.
///
/// Stored as 64-bit limbs, least significant first, with no zero limb at the top (zero
/// has no limbs), so two equal values always have equal limbs.
struct SandboxBigUInt: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The limbs, least significant first; the last one is never zero.
    private(set) var limbs: [UInt64]

    /// Zero.
    init() { limbs = [] }

    /// A value that fits in one limb.
    init(_ value: UInt64) { limbs = value == 0 ? [] : [value] }

    /// The value of `limbs` (least significant first); zero limbs at the top are dropped.
    init(limbs: [UInt64]) {
        self.limbs = limbs
        normalize()
    }

    /// The unsigned big-endian integer in `bytes` (leading zero bytes allowed), as RSA's
    /// OS2IP reads an octet string.
    init(bigEndian bytes: some Collection<UInt8>) {
        var limbs = [UInt64](repeating: 0, count: (bytes.count + 7) / 8)
        for (offset, byte) in bytes.reversed().enumerated() {
            limbs[offset / 8] |= UInt64(byte) << UInt64((offset % 8) * 8)
        }
        self.init(limbs: limbs)
    }

    /// The value as `count` big-endian bytes with leading zeros (RSA's I2OSP), or `nil`
    /// when it does not fit.
    func bigEndianBytes(count: Int) -> [UInt8]? {
        guard (bitWidth + 7) / 8 <= count else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<min(count, limbs.count * 8) {
            bytes[count - 1 - index] = UInt8(truncatingIfNeeded: limbs[index / 8] >> UInt64((index % 8) * 8))
        }
        return bytes
    }

    /// The value as big-endian bytes without leading zeros (zero is `[0]`).
    var minimalBigEndianBytes: [UInt8] {
        bigEndianBytes(count: max(1, (bitWidth + 7) / 8)) ?? []
    }

    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }

    // MARK: Properties

    var isZero: Bool { limbs.isEmpty }
    var isOdd: Bool { (limbs.first ?? 0) & 1 == 1 }

    /// The number of bits up to and including the highest set bit (0 for zero).
    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 64 - top.leadingZeroBitCount
    }

    /// Bit `index` (0 = least significant).
    func bit(_ index: Int) -> Bool {
        let limb = index / 64
        guard limb < limbs.count else { return false }
        return (limbs[limb] >> UInt64(index % 64)) & 1 == 1
    }

    /// Hexadecimal, for test messages.
    var description: String {
        guard let top = limbs.last else { return "0x0" }
        var text = "0x" + String(top, radix: 16)
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb, radix: 16)
            text += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return text
    }

    // MARK: Comparison

    static func < (lhs: SandboxBigUInt, rhs: SandboxBigUInt) -> Bool {
        compare(lhs.limbs[...], rhs.limbs[...]) < 0
    }

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs` (both without top zero limbs
    /// or with; leading zeros are skipped).
    static func compare(_ lhs: ArraySlice<UInt64>, _ rhs: ArraySlice<UInt64>) -> Int {
        var lhsCount = lhs.count, rhsCount = rhs.count
        while lhsCount > 0, lhs[lhs.startIndex + lhsCount - 1] == 0 { lhsCount -= 1 }
        while rhsCount > 0, rhs[rhs.startIndex + rhsCount - 1] == 0 { rhsCount -= 1 }
        if lhsCount != rhsCount { return lhsCount < rhsCount ? -1 : 1 }
        var index = lhsCount - 1
        while index >= 0 {
            let left = lhs[lhs.startIndex + index], right = rhs[rhs.startIndex + index]
            if left != right { return left < right ? -1 : 1 }
            index -= 1
        }
        return 0
    }

    // MARK: Addition, subtraction, multiplication

    static func + (lhs: SandboxBigUInt, rhs: SandboxBigUInt) -> SandboxBigUInt {
        let (long, short) = lhs.limbs.count >= rhs.limbs.count ? (lhs.limbs, rhs.limbs) : (rhs.limbs, lhs.limbs)
        var result = long
        var carry: UInt64 = 0
        for index in 0..<long.count {
            let (sum, overflow1) = result[index].addingReportingOverflow(index < short.count ? short[index] : 0)
            let (total, overflow2) = sum.addingReportingOverflow(carry)
            result[index] = total
            carry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
            if carry == 0 && index >= short.count { break }
        }
        if carry != 0 { result.append(carry) }
        return SandboxBigUInt(limbs: result)
    }

    /// `lhs - rhs`; `rhs` must not exceed `lhs`.
    static func - (lhs: SandboxBigUInt, rhs: SandboxBigUInt) -> SandboxBigUInt {
        precondition(rhs <= lhs, "SandboxBigUInt subtraction would go below zero")
        var result = lhs.limbs
        var borrow: UInt64 = 0
        for index in 0..<result.count {
            let (difference, underflow1) = result[index].subtractingReportingOverflow(
                index < rhs.limbs.count ? rhs.limbs[index] : 0)
            let (total, underflow2) = difference.subtractingReportingOverflow(borrow)
            result[index] = total
            borrow = (underflow1 ? 1 : 0) + (underflow2 ? 1 : 0)
            if borrow == 0 && index >= rhs.limbs.count { break }
        }
        return SandboxBigUInt(limbs: result)
    }

    /// Schoolbook multiplication.
    static func * (lhs: SandboxBigUInt, rhs: SandboxBigUInt) -> SandboxBigUInt {
        if lhs.isZero || rhs.isZero { return SandboxBigUInt() }
        var result = [UInt64](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, left) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, right) in rhs.limbs.enumerated() {
                (carry, result[i + j]) = multiplyAdd(left, right, result[i + j], carry)
            }
            result[i + rhs.limbs.count] = carry
        }
        return SandboxBigUInt(limbs: result)
    }

    /// `a * b + c + d` as (high, low) limbs; never overflows 128 bits.
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        var (high, low) = a.multipliedFullWidth(by: b)
        var overflow: Bool
        (low, overflow) = low.addingReportingOverflow(c)
        if overflow { high &+= 1 }
        (low, overflow) = low.addingReportingOverflow(d)
        if overflow { high &+= 1 }
        return (high, low)
    }

    // MARK: Shifts

    static func << (value: SandboxBigUInt, bits: Int) -> SandboxBigUInt {
        guard !value.isZero, bits > 0 else { return value }
        let limbShift = bits / 64, bitShift = UInt64(bits % 64)
        var result = [UInt64](repeating: 0, count: value.limbs.count + limbShift + 1)
        for (index, limb) in value.limbs.enumerated() {
            result[index + limbShift] |= limb << bitShift
            if bitShift != 0 { result[index + limbShift + 1] = limb >> (64 - bitShift) }
        }
        return SandboxBigUInt(limbs: result)
    }

    static func >> (value: SandboxBigUInt, bits: Int) -> SandboxBigUInt {
        guard bits > 0 else { return value }
        let limbShift = bits / 64, bitShift = UInt64(bits % 64)
        guard limbShift < value.limbs.count else { return SandboxBigUInt() }
        var result = [UInt64](repeating: 0, count: value.limbs.count - limbShift)
        for index in 0..<result.count {
            let source = index + limbShift
            result[index] = value.limbs[source] >> bitShift
            if bitShift != 0, source + 1 < value.limbs.count {
                result[index] |= value.limbs[source + 1] << (64 - bitShift)
            }
        }
        return SandboxBigUInt(limbs: result)
    }

    // MARK: Small divisors

    /// The remainder of dividing by a one-limb `divisor` (not zero).
    func remainder(dividingBy divisor: UInt64) -> UInt64 {
        precondition(divisor != 0, "division by zero")
        var remainder: UInt64 = 0
        for limb in limbs.reversed() {
            remainder = divisor.dividingFullWidth((remainder, limb)).remainder
        }
        return remainder
    }
}
