import Foundation

/// Why a request failed, as its answer says: `{"ok":false,"error":{"code":…,"message":…}}`.
package struct ServiceError: Error, Sendable, Equatable {
    /// The error codes. The first eight are Video Subscriber Account's errors, as the SDK's
    /// `PartnerFrameworkError` names them; the rest are the protocol's own.
    package enum Code: String, Sendable, CaseIterable {
        case userCancelled, otherProviderSelected, unsupportedProvider, serviceTemporarilyUnavailable, providerRejected
        case invalidVerificationToken, rejected, accessNotGranted
        /// The line is not a request of this protocol (not JSON, a field missing or wrong).
        case badRequest
        /// The request names a protocol version the service does not speak.
        case unsupportedVersion
        /// The `op` is not one the service knows.
        case unknownOperation
        /// An administrator's operation asked by an app's connection.
        case notPermitted
        /// The line is longer than the service reads.
        case lineTooLong
        /// The service has too many connections or requests under way.
        case busy
    }

    package var code: Code
    /// A sentence a person can act on.
    package var message: String
    /// The household sign-in under way, when the person can still finish it.
    package var signIn: SignInCode?

    package init(_ code: Code, _ message: String, signIn: SignInCode? = nil) {
        self.code = code
        self.message = message
        self.signIn = signIn
    }
}

/// A household sign-in under way: the code a person types, where, and until when.
package struct SignInCode: Sendable, Equatable {
    /// The code as the device shows it (`BCDF-GHJK`).
    package var code: String
    /// The page where the person types it.
    package var url: String
    /// The same page with the code filled in (for a QR code).
    package var completeURL: String
    /// When the code stops working.
    package var expiresAt: Date

    package init(code: String, url: String, completeURL: String, expiresAt: Date) {
        self.code = code
        self.url = url
        self.completeURL = completeURL
        self.expiresAt = expiresAt
    }
}

/// What `status` answers.
package struct ServiceStatus: Sendable, Equatable {
    /// The household's sign-in (its credential is never answered).
    package var household: HouseholdSignIn?
    /// A sign-in under way.
    package var signIn: SignInCode?
    /// Every app with a permission on record, in order.
    package var permissions: [(AppIdentity, AppPermission)]

    package static func == (lhs: ServiceStatus, rhs: ServiceStatus) -> Bool {
        lhs.household == rhs.household && lhs.signIn == rhs.signIn
            && lhs.permissions.elementsEqual(rhs.permissions) { $0 == $1 }
    }
}

/// The answer to one request.
package enum ServiceAnswer: Sendable, Equatable {
    /// `hello`.
    case hello
    /// `accessStatus`.
    case accessStatus(AppPermission)
    /// `accountMetadata`: the provider (nil when nobody is signed in), when the sign-in ends,
    /// and the SAML response when one was asked for.
    case metadata(provider: String?, expiresAt: Date?, samlResponse: String?)
    /// `subscribe`: events follow on this connection.
    case subscribed
    /// `status`.
    case status(ServiceStatus)
    /// `grant`, `deny`, `restrict`, `reset`: the app's permission now.
    case permission(AppIdentity, AppPermission)
    /// `signIn`: the code to type (the sign-in under way, or a new one).
    case signInCode(SignInCode)
    /// `signOut`: whether a household was signed in.
    case signedOut(wasSignedIn: Bool)
    /// Any request that failed.
    case failure(ServiceError)
}

/// What the service tells its subscribers, as it happens.
package enum ServiceEvent: Sendable, Equatable {
    /// A household sign-in started: the code is ready.
    case signInStarted(SignInCode)
    /// The household signed in.
    case signedIn(provider: String, providerName: String, expiresAt: Date)
    /// The household signed out (at the service, or its sign-in was refused or ended).
    case signedOut
    /// A sign-in under way ended without a sign-in (`cancelled`, `otherProvider`, `expired`,
    /// `chosenOnly`, `failed`).
    case signInEnded(reason: String)
    /// An app's permission changed.
    case permissionChanged(AppIdentity, AppPermission)
}
