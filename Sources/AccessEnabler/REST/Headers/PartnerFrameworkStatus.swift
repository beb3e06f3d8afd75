import Foundation

/// What the partner framework reported, as sent in the `AP-Partner-Framework-Status`
/// header: Base64 of
/// `{"frameworkPermissionInfo":{"accessStatus":…,"error":{…}},"frameworkProviderInfo":{"id":…,"expirationDate":"<epoch ms>"}}`.
struct PartnerFrameworkStatus: Sendable, Equatable {
    /// A partner framework error carried in the header.
    struct FrameworkError: Sendable, Equatable {
        /// The partner framework's error code.
        var code: String
        /// The partner framework's description of the error.
        var message: String
    }

    /// The documented `accessStatus` values.
    static let allowedAccessStatuses: Set<String> = ["granted", "denied", "restricted", "notDetermined"]

    /// `frameworkPermissionInfo.accessStatus`: `granted`, `denied`, `restricted` or `notDetermined`.
    var accessStatus: String
    /// `frameworkProviderInfo.id`: the provider mapping id the user is signed in with, if any.
    var providerID: String?
    /// `frameworkProviderInfo.expirationDate`: when the system-level sign-in ends.
    var expirationDate: Date?
    /// `frameworkPermissionInfo.error`: the error the permission query reported, if any.
    var error: FrameworkError?

    /// Creates a status from its wire values.
    init(accessStatus: String, providerID: String? = nil, expirationDate: Date? = nil, error: FrameworkError? = nil) {
        self.accessStatus = accessStatus
        self.providerID = providerID
        self.expirationDate = expirationDate
        self.error = error
    }

    /// Creates a status from a partner framework's answers.
    ///
    /// - Parameters:
    ///   - access: the permission query's result; an error becomes `notDetermined` plus ``error``.
    ///   - metadata: the account metadata, when it was read.
    init(access: PartnerAccessResult, metadata: PartnerAccountMetadata?) {
        self.accessStatus = access.wireValue
        self.providerID = metadata?.accountProviderIdentifier
        self.expirationDate = metadata?.authenticationExpirationDate
        if case .error(let code, let message) = access {
            self.error = FrameworkError(code: code, message: message)
        } else {
            self.error = nil
        }
    }

    /// What breaks the header's rules, or `nil` when the values are valid.
    var validationProblem: String? {
        if !Self.allowedAccessStatuses.contains(accessStatus) {
            return
                "accessStatus \"\(accessStatus)\" is not one of \(Self.allowedAccessStatuses.sorted().joined(separator: ", "))"
        }
        if let providerID, providerID.trimmingCharacters(in: .whitespaces).isEmpty {
            return "the provider id is empty"
        }
        return nil
    }

    /// The header value: Base64 of the JSON document (keys sorted; the provider keys are
    /// written only when known, so a status without a signed-in provider sends
    /// `"frameworkProviderInfo":{}`).
    var headerValue: String {
        let document = WireDocument(
            frameworkPermissionInfo: .init(
                accessStatus: accessStatus,
                error: error.map { .init(code: $0.code, message: $0.message) }
            ),
            frameworkProviderInfo: .init(
                id: providerID,
                expirationDate: expirationDate.map(EpochMilliseconds.string)
            )
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return data.base64EncodedString()
    }

    /// ``headerValue``, encoded once per distinct status: the requests of one flow carry the
    /// same status.
    var cachedHeaderValue: String {
        if let cached = Self.headerCache.value(for: self) { return cached }
        let value = headerValue
        Self.headerCache.store(value, for: self)
        return value
    }

    private static let headerCache = LastValueCache<PartnerFrameworkStatus, String>()

    /// The JSON document behind the header.
    private struct WireDocument: Encodable {
        struct ErrorInfo: Encodable {
            var code: String
            var message: String
        }
        struct PermissionInfo: Encodable {
            var accessStatus: String
            var error: ErrorInfo?
        }
        struct ProviderInfo: Encodable {
            var id: String?
            var expirationDate: String?
        }
        var frameworkPermissionInfo: PermissionInfo
        var frameworkProviderInfo: ProviderInfo
    }
}
