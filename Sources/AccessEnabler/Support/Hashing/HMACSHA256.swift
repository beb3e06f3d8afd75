/// HMAC with SHA-256 (RFC 2104), used to detect changes to stored files.
enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var blockKey = key.count > SHA256.blockSize ? SHA256.digest(key) : key
        blockKey += [UInt8](repeating: 0, count: SHA256.blockSize - blockKey.count)

        var inner = SHA256()
        inner.update(blockKey.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalize()

        var outer = SHA256()
        outer.update(blockKey.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finalize()
    }

    /// Whether `expected` equals `actual`, comparing every byte so the time taken does
    /// not reveal where the first difference is.
    static func constantTimeEquals(_ expected: [UInt8], _ actual: [UInt8]) -> Bool {
        guard expected.count == actual.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices {
            difference |= expected[index] ^ actual[index]
        }
        return difference == 0
    }
}
