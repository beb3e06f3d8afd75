import Foundation
import Testing

@testable import AccessEnabler

@Suite("Storage: SHA-256, HMAC-SHA256, hex")
struct StorageCryptoTests {
    private func hex(_ text: String) -> String { SHA256.hexDigest(Array(text.utf8)) }

    @Test("SHA-256 matches the FIPS 180-4 / NIST examples")
    func sha256Vectors() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            )
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("SHA-256 of one million 'a' (many blocks)")
    func sha256Million() {
        var hash = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hash.update(chunk) }
        #expect(Hex.encode(hash.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "Feeding bytes in pieces gives the same digest as at once, around the padding boundaries",
        arguments: [55, 56, 63, 64, 65, 119, 120, 128])
    func incrementalEqualsOneShot(length: Int) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hash = SHA256()
        hash.update(message.prefix(length / 3))
        hash.update(message.dropFirst(length / 3))
        #expect(hash.finalize() == SHA256.digest(message))
        // Bytes that are not contiguous in memory (taken one by one), then contiguous ones.
        var mixed = SHA256()
        mixed.update(message.prefix(length / 2).lazy.map { $0 })
        mixed.update(message.dropFirst(length / 2))
        #expect(mixed.finalize() == SHA256.digest(message))
    }

    @Test("HMAC-SHA256 matches RFC 4231 test cases 1, 2 and 6")
    func hmacVectors() {
        let case1 = HMACSHA256.authenticationCode(
            for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
        #expect(Hex.encode(case1) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")

        let case2 = HMACSHA256.authenticationCode(
            for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(Hex.encode(case2) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")

        let case6 = HMACSHA256.authenticationCode(
            for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            key: [UInt8](repeating: 0xaa, count: 131))
        #expect(Hex.encode(case6) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("Constant-time comparison tells equal from different codes")
    func constantTimeEquals() {
        #expect(HMACSHA256.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.constantTimeEquals([1, 2, 3], [1, 2]))
    }

    @Test("Hex round-trips and rejects malformed text")
    func hexCoding() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa5, 0xff]
        #expect(Hex.encode(bytes) == "000fa5ff")
        #expect(Hex.decode("000fa5ff") == bytes)
        #expect(Hex.decode("000FA5FF") == bytes)
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
