import AccessEnabler
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The sandbox's SAML authority for partner single sign-on.
///
/// `POST /sessions/sso/Apple` hands out a SAML request (Base64-encoded XML with a request
/// id). The simulated partner framework asks the authority to answer it for the user
/// signed in at system level; the answer is SAML response XML whose assertion (request
/// id, MVPD, user, validity) carries an HMAC-SHA256 under the sandbox's secret.
/// `POST /profiles/sso/Apple` accepts only responses that verify, answer a request this
/// sandbox issued for that service provider and MVPD, and are still valid; any edit breaks
/// the signature.
extension SandboxEngine {
    static let samlIssuer = "https://saml.sandbox.invalid"

    /// Issues a SAML request for `mvpd` and remembers it until the session window ends.
    func mintSAMLRequest(serviceProvider: String, mvpd: String, now: Date) -> String {
        let requestID = "_" + newIdentifier()
        remember(
            PendingSAMLRequest(
                requestID: requestID, serviceProvider: serviceProvider, mvpd: mvpd,
                expiresAt: now.addingTimeInterval(Self.samlRequestTTL)))
        let xml = """
            <samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
            ID="\(requestID)" Version="2.0" IssueInstant="\(Self.isoTime(now))" Destination="\(Self.escape(mvpd))">\
            <saml:Issuer>\(Self.samlIssuer)</saml:Issuer></samlp:AuthnRequest>
            """
        return Data(xml.utf8).base64EncodedString()
    }

    /// Answers a SAML request for the user `username` of the MVPD whose platform mapping id
    /// is `providerMappingID` (what the partner framework does after the MVPD login).
    func mintSAMLResponse(samlRequest: String, providerMappingID: String, username: String, now: Date) -> Result<
        String, PartnerFrameworkError
    > {
        guard let requestXML = Self.decodeSAML(samlRequest),
            let requestID = Self.value(in: requestXML, after: " ID=\"", until: "\""),
            let pending = pendingSAMLRequests[requestID], now < pending.expiresAt,
            let provider = world.serviceProvider(pending.serviceProvider)
        else { return .failure(.invalidVerificationToken) }
        guard let mvpd = provider.mvpds.first(where: { $0.platformMappingId == providerMappingID }),
            let user = mvpd.user(username)
        else { return .failure(.providerRejected) }
        let notOnOrAfter = now.addingTimeInterval(Self.samlRequestTTL).epochMilliseconds
        let signature = signAssertion(
            requestID: requestID, mvpd: mvpd.id, username: user.username, userID: user.userID,
            notOnOrAfter: notOnOrAfter)
        let xml = """
            <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" \
            ID="_\(newIdentifier())" InResponseTo="\(requestID)" Version="2.0" IssueInstant="\(Self.isoTime(now))">\
            <saml:Issuer>\(Self.escape(mvpd.id))</saml:Issuer>\
            <samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>\
            <saml:Assertion><saml:Subject><saml:NameID>\(Self.escape(user.userID))</saml:NameID></saml:Subject>\
            <saml:Conditions NotOnOrAfter="\(notOnOrAfter)"/>\
            <saml:AttributeStatement>\
            <saml:Attribute Name="mvpd"><saml:AttributeValue>\(Self.escape(mvpd.id))</saml:AttributeValue></saml:Attribute>\
            <saml:Attribute Name="username"><saml:AttributeValue>\(Self.escape(user.username))</saml:AttributeValue></saml:Attribute>\
            </saml:AttributeStatement></saml:Assertion>\
            <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignatureValue>\(signature)</ds:SignatureValue></ds:Signature>\
            </samlp:Response>
            """
        return .success(xml)
    }

    /// What a verified SAML response vouches for.
    struct VerifiedAssertion {
        let requestID: String
        let mvpd: SandboxMVPDConfig
        let user: SandboxUser
    }

    /// Verifies a `SAMLResponse` form value (Base64-encoded XML; raw XML accepted).
    func verifySAMLResponse(_ value: String, provider: SandboxServiceProvider, now: Date) -> VerifiedAssertion? {
        guard let xml = Self.decodeSAML(value),
            let requestID = Self.value(in: xml, after: "InResponseTo=\"", until: "\""),
            let mvpdID = Self.value(in: xml, after: "<saml:Attribute Name=\"mvpd\"><saml:AttributeValue>", until: "<"),
            let username = Self.value(
                in: xml, after: "<saml:Attribute Name=\"username\"><saml:AttributeValue>", until: "<"),
            let userID = Self.value(in: xml, after: "<saml:NameID>", until: "<"),
            let notOnOrAfterText = Self.value(in: xml, after: "NotOnOrAfter=\"", until: "\""),
            let notOnOrAfter = Int64(notOnOrAfterText),
            let signature = Self.value(in: xml, after: "<ds:SignatureValue>", until: "<")
        else { return nil }
        let expected = signAssertion(
            requestID: requestID, mvpd: mvpdID, username: username, userID: userID, notOnOrAfter: notOnOrAfter)
        guard Self.constantTimeEqual(expected, signature),
            now.epochMilliseconds < notOnOrAfter,
            let pending = pendingSAMLRequests[requestID], now < pending.expiresAt,
            pending.serviceProvider == provider.id, pending.mvpd == mvpdID,
            let mvpd = provider.mvpd(mvpdID), let user = mvpd.user(username), user.userID == userID
        else { return nil }
        return VerifiedAssertion(requestID: requestID, mvpd: mvpd, user: user)
    }

    private func signAssertion(requestID: String, mvpd: String, username: String, userID: String, notOnOrAfter: Int64)
        -> String
    {
        SandboxHMAC.hexAuthenticationCode(
            key: secret, text: "saml|\(requestID)|\(mvpd)|\(username)|\(userID)|\(notOnOrAfter)")
    }

    /// Base64 (spaces read as `+`, in case a form decoder turned them) or raw XML.
    static func decodeSAML(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("<") { return trimmed }
        let repaired =
            trimmed.utf8.contains(UInt8(ascii: " ")) ? trimmed.replacingOccurrences(of: " ", with: "+") : trimmed
        guard let data = Data(base64Encoded: repaired) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// The unescaped text between `marker` and the next `terminator`.
    static func value(in text: String, after marker: String, until terminator: Character) -> String? {
        // Byte by byte: the XML is kilobytes long and Foundation's range(of:) goes through UTF-16.
        let bytes = text.utf8, pattern = Array(marker.utf8)
        guard let terminatorByte = terminator.asciiValue, !pattern.isEmpty else { return nil }
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: pattern[0]) {
            if bytes[found...].starts(with: pattern) {
                let start = bytes.index(found, offsetBy: pattern.count)
                guard let end = bytes[start...].firstIndex(of: terminatorByte) else { return nil }
                return unescape(String(decoding: bytes[start..<end], as: UTF8.self))
            }
            index = bytes.index(after: found)
        }
        return nil
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// `date` in UTC as `yyyy-MM-ddTHH:mm:ssZ` (what `ISO8601DateFormatter` writes by
    /// default). Formatted by hand: creating a formatter per call cost about 70 µs.
    static func isoTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
