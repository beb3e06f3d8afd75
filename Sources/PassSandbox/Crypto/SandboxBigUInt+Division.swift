extension SandboxBigUInt {
    /// Long division (Knuth, The Art of Computer Programming vol. 2, 4.3.1, algorithm D,
    /// on 64-bit limbs). `divisor` must not be zero.
    func quotientAndRemainder(dividingBy divisor: SandboxBigUInt) -> (
        quotient: SandboxBigUInt, remainder: SandboxBigUInt
    ) {
        precondition(!divisor.isZero, "division by zero")
        if self < divisor { return (SandboxBigUInt(), self) }
        if divisor.limbs.count == 1 { return shortDivision(by: divisor.limbs[0]) }

        // Normalise so the divisor's top limb has its top bit set: then each estimated
        // quotient limb is at most two too large.
        let shift = divisor.limbs[divisor.limbs.count - 1].leadingZeroBitCount
        let v = (divisor << shift).limbs
        var u = (self << shift).limbs
        let n = v.count
        while u.count < limbs.count + 1 { u.append(0) }
        let m = u.count - n - 1
        let vTop = v[n - 1], vNext = v[n - 2]
        var quotient = [UInt64](repeating: 0, count: m + 1)

        for j in stride(from: m, through: 0, by: -1) {
            // Estimate the quotient limb from the top two limbs of the remainder.
            var estimate: UInt64
            var remainderEstimate: UInt64
            var remainderOverflowed = false
            if u[j + n] >= vTop {
                estimate = .max
                (remainderEstimate, remainderOverflowed) = u[j + n - 1].addingReportingOverflow(vTop)
            } else {
                (estimate, remainderEstimate) = vTop.dividingFullWidth((u[j + n], u[j + n - 1]))
            }
            while !remainderOverflowed {
                let product = estimate.multipliedFullWidth(by: vNext)
                guard
                    product.high > remainderEstimate
                        || (product.high == remainderEstimate && product.low > u[j + n - 2])
                else { break }
                estimate -= 1
                (remainderEstimate, remainderOverflowed) = remainderEstimate.addingReportingOverflow(vTop)
            }

            // Subtract estimate × divisor from the remainder's window.
            var carry: UInt64 = 0, borrow: UInt64 = 0
            for i in 0..<n {
                let product = Self.multiplyAdd(estimate, v[i], carry, 0)
                carry = product.high
                let (difference, underflow1) = u[i + j].subtractingReportingOverflow(product.low)
                let (result, underflow2) = difference.subtractingReportingOverflow(borrow)
                u[i + j] = result
                borrow = (underflow1 ? 1 : 0) + (underflow2 ? 1 : 0)
            }
            let (difference, underflow1) = u[j + n].subtractingReportingOverflow(carry)
            let (top, underflow2) = difference.subtractingReportingOverflow(borrow)
            u[j + n] = top

            // Rarely the estimate is still one too large: add the divisor back.
            if underflow1 || underflow2 {
                estimate -= 1
                var addCarry: UInt64 = 0
                for i in 0..<n {
                    let (sum, overflow1) = u[i + j].addingReportingOverflow(v[i])
                    let (total, overflow2) = sum.addingReportingOverflow(addCarry)
                    u[i + j] = total
                    addCarry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
                }
                u[j + n] &+= addCarry
            }
            quotient[j] = estimate
        }
        let remainder = SandboxBigUInt(limbs: Array(u[0..<n])) >> shift
        return (SandboxBigUInt(limbs: quotient), remainder)
    }

    /// Division by a one-limb divisor.
    private func shortDivision(by divisor: UInt64) -> (quotient: SandboxBigUInt, remainder: SandboxBigUInt) {
        var quotient = [UInt64](repeating: 0, count: limbs.count)
        var remainder: UInt64 = 0
        for index in stride(from: limbs.count - 1, through: 0, by: -1) {
            (quotient[index], remainder) = divisor.dividingFullWidth((remainder, limbs[index]))
        }
        return (SandboxBigUInt(limbs: quotient), SandboxBigUInt(remainder))
    }

    static func / (lhs: SandboxBigUInt, rhs: SandboxBigUInt) -> SandboxBigUInt {
        lhs.quotientAndRemainder(dividingBy: rhs).quotient
    }

    static func % (lhs: SandboxBigUInt, rhs: SandboxBigUInt) -> SandboxBigUInt {
        lhs.quotientAndRemainder(dividingBy: rhs).remainder
    }
}
