import Foundation
import Testing

@testable import PassSandbox

extension SandboxBigUInt {
    /// A value from hexadecimal digits (tests only).
    init(hex: String) {
        var bytes: [UInt8] = []
        var digits = Array(hex.utf8)
        if digits.count % 2 == 1 { digits.insert(UInt8(ascii: "0"), at: 0) }
        for index in stride(from: 0, to: digits.count, by: 2) {
            bytes.append(UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)!)
        }
        self.init(bigEndian: bytes)
    }
}

@Suite("RS256 of the sandbox's own")
struct SandboxRSATests {
    typealias Numbers = IndependentFixtures.Arithmetic

    @Test func bigIntegerArithmeticMatchesPython() {
        let a = SandboxBigUInt(hex: Numbers.a), b = SandboxBigUInt(hex: Numbers.b), c = SandboxBigUInt(hex: Numbers.c)
        #expect(a * b == SandboxBigUInt(hex: Numbers.product))
        #expect(a / b == SandboxBigUInt(hex: Numbers.quotient))
        #expect(a % b == SandboxBigUInt(hex: Numbers.remainder))
        #expect(a / c == SandboxBigUInt(hex: Numbers.quotientC))
        #expect(a % c == SandboxBigUInt(hex: Numbers.remainderC))
        #expect((a / b) * b + a % b == a)
        #expect(a * b - a == a * (b - SandboxBigUInt(1)))
        #expect(((a << 77) >> 77) == a)
        #expect(a.remainder(dividingBy: 65_537) == (a % SandboxBigUInt(65_537)).limbs.first)
    }

    @Test func modularPowerAndInverseMatchPython() throws {
        let modulus = SandboxBigUInt(hex: Numbers.modulus)
        let power = SandboxMontgomery(modulus: modulus).power(
            SandboxBigUInt(hex: Numbers.a), SandboxBigUInt(hex: Numbers.exponent))
        #expect(power == SandboxBigUInt(hex: Numbers.power))
        let inverse = try #require(SandboxBigUInt(hex: Numbers.b).inverse(modulo: modulus))
        #expect(inverse == SandboxBigUInt(hex: Numbers.inverse))
        #expect(SandboxBigUInt(6).inverse(modulo: SandboxBigUInt(9)) == nil)
    }

    @Test func bytesRoundTripBigEndian() {
        let value = SandboxBigUInt(bigEndian: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09])
        #expect(value.bitWidth == 65)
        #expect(value.bigEndianBytes(count: 12) == [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(value.bigEndianBytes(count: 8) == nil)
        #expect(value.minimalBigEndianBytes == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test func millerRabinTellsPrimesFromComposites() {
        let mersenne127 = (SandboxBigUInt(1) << 127) - SandboxBigUInt(1)
        #expect(mersenne127.passesMillerRabin(bases: [SandboxBigUInt(2), SandboxBigUInt(3), SandboxBigUInt(5)]))
        // 2^128 + 1 = 59649589127497217 × 5704689200685129054721, a strong pseudoprime to
        // base 2 (as every Fermat number is) that base 3 exposes.
        let fermat7 = (SandboxBigUInt(1) << 128) + SandboxBigUInt(1)
        #expect(fermat7.passesMillerRabin(bases: [SandboxBigUInt(2)]))
        #expect(!fermat7.passesMillerRabin(bases: [SandboxBigUInt(2), SandboxBigUInt(3)]))
        // The Carmichael number 561 fools Fermat's test, not Miller–Rabin's.
        #expect(!SandboxBigUInt(561).passesMillerRabin(bases: [SandboxBigUInt(2)]))
    }

    @Test func base64URLHasNoPaddingAndRefusesOtherAlphabets() {
        #expect(SandboxBase64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(SandboxBase64URL.decode("-_8") == [0xfb, 0xff])
        #expect(SandboxBase64URL.decode("+/8") == nil)
        #expect(SandboxBase64URL.decode("-_8=") == nil)
        #expect(SandboxBase64URL.decode("A") == nil)
        #expect(SandboxBase64URL.decode("") == [])
    }

    @Test func theEncodingIsEMSAPKCS1v15WithTheSHA256DigestInfo() throws {
        let encoded = try #require(SandboxPKCS1.encodedSHA256(Array("abc".utf8), length: 256))
        #expect(encoded.count == 256)
        #expect(Array(encoded.prefix(2)) == [0x00, 0x01])
        // 256 − 3 − 19 (DigestInfo prefix) − 32 (digest) = 202 bytes of FF.
        #expect(encoded[2..<204].allSatisfy { $0 == 0xff })
        #expect(encoded[204] == 0x00)
        #expect(
            Array(encoded[205..<224]) == [
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
                0x04, 0x20,
            ])
        // SHA-256("abc") from FIPS 180-2, appendix B.1.
        #expect(
            SandboxBase64URL.encode(encoded[224...])
                == SandboxBase64URL.encode(hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        )
        #expect(SandboxPKCS1.encodedSHA256([], length: 61) == nil)
    }

    @Test func aTokenSignedByAnIndependentImplementationVerifies() throws {
        let keys = try SandboxIndependentKeys.load()
        let token = try SandboxJWS.parse(IndependentFixtures.token).get()
        #expect(token.keyID == "fixture-identity-2026")
        #expect(
            token.claims
                == SandboxJWTClaims(
                    issuer: "fixture-identity", subject: "jane", audiences: ["Adobe"],
                    issuedAt: 1_767_225_600, expiresAt: 1_767_312_000, notBefore: nil))
        #expect(token.verifies(with: keys.publicKey))
    }

    @Test func theSandboxSignsExactlyAsTheIndependentImplementation() throws {
        // RSASSA-PKCS1-v1_5 is deterministic: the same key and input give the same bytes.
        let keys = try SandboxIndependentKeys.load()
        let claims = SandboxJWTClaims(
            issuer: "fixture-identity", subject: "jane", audiences: ["Adobe"],
            issuedAt: 1_767_225_600, expiresAt: 1_767_312_000, notBefore: nil)
        #expect(
            SandboxJWS.sign(claims, keyID: "fixture-identity-2026", with: keys.privateKey) == IndependentFixtures.token)
    }

    @Test func signingWithoutThePrimesGivesTheSameSignature() throws {
        let keys = try SandboxIndependentKeys.load()
        var withoutPrimes = IndependentFixtures.key
        (withoutPrimes.p, withoutPrimes.q, withoutPrimes.dp, withoutPrimes.dq, withoutPrimes.qi) = (
            nil, nil, nil, nil, nil
        )
        let plain = try #require(try withoutPrimes.rsaKeys().get().privateKey)
        let message = Array("no Chinese remainder".utf8)
        #expect(plain.signRS256(message) == keys.privateKey.signRS256(message))
    }

    @Test func anyChangeToTheTokenBreaksTheSignature() throws {
        let keys = try SandboxIndependentKeys.load()
        let parts = IndependentFixtures.token.split(separator: ".").map(String.init)
        let otherPayload = SandboxBase64URL.encode(
            Array(#"{"iss":"fixture-identity","sub":"john","aud":"Adobe","iat":1767225600,"exp":1767312000}"#.utf8))
        let otherHeader = SandboxBase64URL.encode(Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
        var signature = try #require(SandboxBase64URL.decode(parts[2]))
        signature[100] ^= 0x01
        let tampered = [
            "payload": [parts[0], otherPayload, parts[2]],
            "header": [otherHeader, parts[1], parts[2]],
            "signature": [parts[0], parts[1], SandboxBase64URL.encode(signature)],
            "short signature": [parts[0], parts[1], SandboxBase64URL.encode(signature.dropLast())],
        ]
        for (what, pieces) in tampered {
            let token = try SandboxJWS.parse(pieces.joined(separator: ".")).get()
            #expect(!token.verifies(with: keys.publicKey), "a token with another \(what) verified")
        }
    }

    @Test func onlyRS256IsAccepted() {
        let payload = SandboxBase64URL.encode(
            Array(#"{"iss":"sandbox-identity","sub":"jane","aud":"Adobe","exp":1767312000}"#.utf8))
        for header in [#"{"alg":"none"}"#, #"{"alg":"HS256","typ":"JWT"}"#, #"{"alg":"RS512"}"#, #"{"typ":"JWT"}"#] {
            let token = SandboxBase64URL.encode(Array(header.utf8)) + "." + payload + "."
            guard case .failure(.algorithm) = SandboxJWS.parse(token) else {
                Issue.record("\(header) was not refused for its algorithm")
                continue
            }
        }
    }

    @Test func malformedTokensSayWhatIsWrong() {
        let header = SandboxBase64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))
        func problem(_ token: String) -> SandboxJWSProblem? {
            if case .failure(let problem) = SandboxJWS.parse(token) { return problem }
            return nil
        }
        #expect(problem("eyJhbGciOiJSUzI1NiJ9") == .notCompact)
        #expect(problem("a.b.c.d") == .notCompact)
        #expect(problem(header + ".e30=.c2ln") == .notBase64URL(part: "payload"))
        #expect(problem(SandboxBase64URL.encode(Array("[]".utf8)) + ".e30.c2ln") == .headerNotJSON)
        #expect(
            problem(
                header + "." + SandboxBase64URL.encode(Array(#"{"sub":"jane","aud":"Adobe","exp":1}"#.utf8)) + ".c2ln")
                == .claim("iss", "a non-empty string"))
        #expect(
            problem(
                header + "."
                    + SandboxBase64URL.encode(Array(#"{"iss":"i","sub":"jane","aud":"Adobe","exp":true}"#.utf8))
                    + ".c2ln")
                == .claim("exp", "a number of seconds since 1970"))
        #expect(
            problem(
                header + "." + SandboxBase64URL.encode(Array(#"{"iss":"i","sub":"jane","aud":7,"exp":1}"#.utf8))
                    + ".c2ln")
                == .claim("aud", "a string or an array of strings"))
    }

    @Test func aDerivedKeyIsTheOneItsDescriptionGives() throws {
        let key = SandboxIdentityKeyCache.shared.derivedKey(issuer: "derivation-test")
        #expect(key.publicKey.modulus == SandboxBigUInt(hex: IndependentFixtures.derivedModulus))
        #expect(key.publicKey.publicExponent == SandboxBigUInt(65_537))
        let message = Array("derived".utf8)
        #expect(key.publicKey.verifiesRS256(signature: key.signRS256(message), of: message))
    }

    private func hexBytes(_ hex: String) -> [UInt8] {
        SandboxBigUInt(hex: hex).bigEndianBytes(count: hex.count / 2) ?? []
    }
}

/// The independent fixture's keys, read through the sandbox's JWK reader.
enum SandboxIndependentKeys {
    static func load() throws -> (publicKey: SandboxRSAPublicKey, privateKey: SandboxRSAPrivateKey) {
        let keys = try IndependentFixtures.key.rsaKeys().get()
        return (keys.publicKey, try #require(keys.privateKey))
    }
}
