import Foundation

/// The words a person reads in the statuses and failure callbacks the state machines
/// deliver, in one place: each a small function of what it names (or a constant), so a
/// transition says *which* sentence and a writer reviews the words without reading the
/// transitions. The status id, level and legacy code of each are ``StatusCatalog``'s.
///
/// Every sentence says what happened and what the app or the person can do about it.
enum StatusSentences {
    // MARK: The requestor

    /// CFG400: a call made before any setRequestor.
    static let noRequestor = "No requestor is set: call setRequestor(_:) and wait for setRequestorComplete(1) first."
    /// CFG400: `setRequestor("")`.
    static let emptyRequestorID = "setRequestor needs a requestor id; an empty one was given."

    /// CFG400: the configuration's numbers out of range, each said by `problems`.
    static func configurationRefused(_ problems: [String]) -> String {
        "\(problems.joined(separator: " ")) Fix the configuration: setRequestor refuses it until then."
    }

    /// CFG404: a service provider URL that cannot be read.
    static func unreadableServiceProvider(_ text: String) -> String {
        "setRequestor was given a service provider URL that is not an http(s) URL: \(text)"
    }

    /// APPL: the partner framework's account service answered with an error.
    static let partnerAccountUnreadable = "The TV provider account service could not be read."

    /// N130: a new registration of the application ended this requestor's sign-in.
    static let signedOutByNewRegistration =
        "Adobe Pass no longer knew this application's registration, so the application registered again; "
        + "the sign-in made with the old registration no longer holds and was removed from this device. "
        + "Sign in again with getAuthentication()."

    // MARK: Calls refused while another flow is open

    /// N500: a call refused while the partner sign-in is open.
    static let partnerSignInStillOpen =
        "The TV provider sign-in is still open for this authentication; wait for it to end."
    /// N500: a call refused while a login page (or the session it needs) is open.
    static let loginPageAlreadyOpen =
        "An MVPD login page is already open for this authentication: finish it with handleExternalURL(_:), "
        + "or cancel it with setSelectedProvider(nil)."
    /// N500: a call refused while a second screen's sign-in is under way.
    static let secondScreenUnderWay =
        "A sign-in on a second screen is under way for this authentication: wait for it to end, "
        + "or cancel it with setSelectedProvider(nil)."
    /// N500: a call refused while a provider dialog waits for the app.
    static let providerDialogWaiting =
        "An authentication flow is already waiting for the application: finish it with setSelectedProvider(_:), "
        + "or cancel it with setSelectedProvider(nil)."

    /// N500: why `getAuthorization(resource)` was refused, after the sentence of the open flow.
    static func authorizationRefused(_ why: String, resource: String) -> String {
        why + " getAuthorization(\(resource)) was refused."
    }

    /// `tokenRequestFailed`: a `getAuthorization` refused while another flow is open.
    static let flowInProgress = "An authentication flow is already in progress."

    // MARK: Choosing a provider

    /// N005: `setSelectedProvider(nil)`.
    static let providerSelectionCancelled = "The user cancelled provider selection."
    /// `tokenRequestFailed` of the authorization whose authentication was cancelled.
    static let authenticationCancelled = "Authentication was cancelled."

    /// N500: `setSelectedProvider` with an MVPD the requestor's configuration does not name.
    static func notAnMVPDOfTheRequestor(_ id: String, requestor: String?, choices: [String]) -> String {
        "setSelectedProvider was given \(id), which is not an MVPD of requestor \(requestor ?? "?"). "
            + "Choose one of: \(choices.joined(separator: ", "))."
    }

    // MARK: Opening a session

    /// N500: a session for an MVPD the current requestor does not have.
    static func notAnMVPDOfTheCurrentRequestor(_ mvpd: String) -> String {
        "\(mvpd) is not an MVPD of the current requestor."
    }
    /// N500: a session asked for before setRequestor.
    static let noRequestorForSignIn = "No requestor is ready for a sign-in: call setRequestor(_:) first."
    /// N500: a session without an MVPD cannot show a login page on the device.
    static let sessionWithoutProviderNeedsSecondScreen =
        "A session without a TV provider needs a second screen to choose one."
    /// How messages name the TV provider of a session without one.
    static let providerToBeChosenOnSecondScreen = "a TV provider to be chosen on a second screen"
    /// How messages about a code name the TV provider of a session without one.
    static let providerChosenOnSecondScreen = "the TV provider chosen on the second screen"
    /// How the second screen's REGCODE names a provider not chosen yet.
    static let yourTVProvider = "your TV provider"

    /// N500: a `sessions` answer the SDK cannot continue (`answer`: its action name and type).
    static func sessionAnswerNotContinued(mvpd: String?, answer: String) -> String {
        "Adobe Pass answered the authentication session for \(mvpd ?? providerToBeChosenOnSecondScreen) "
            + "with \(answer), which this SDK cannot continue."
    }

    /// The reason of a malformed answer: the session's profile was not in it.
    static func profileMissing(mvpd: String) -> String { "the profile for \(mvpd) was missing from the answer" }

    /// N011: signed in with TempPass.
    static func signedInWithTempPass(_ displayName: String) -> String {
        "The user is authenticated with TempPass (\(displayName))."
    }
    /// N010: signed in by a degradation rule.
    static func signedInByDegradation(_ displayName: String) -> String {
        "\(displayName) is degraded: the user is authenticated by a degradation rule."
    }
    /// N111: the TempPass is used up.
    static func tempPassUsedUp(_ displayName: String) -> String {
        "The TempPass of \(displayName) is used up: choose a regular TV provider to keep watching."
    }

    /// REG500: the second screen's code could not be had (`displayName` `nil`: no MVPD yet).
    static func registrationCodeUnavailable(_ displayName: String?, reason: String) -> String {
        "The registration code for \(displayName ?? "a sign-in on a second screen") "
            + "could not be obtained from Adobe Pass: \(reason)"
    }

    /// What a session being opened was: the subject of ``abandoned(_:why:)``.
    static func sessionBeingOpened(mvpd: String?) -> String {
        "The authentication session for \(mvpd ?? providerToBeChosenOnSecondScreen)"
    }
    /// The subject of ``abandoned(_:why:)`` for a flow waiting for the configuration (with the
    /// MVPD selected, if any).
    static func authenticationWaitingForConfiguration(mvpd: String?) -> String {
        mvpd.map { "The authentication with \($0), waiting for the requestor's configuration," }
            ?? "The authentication, waiting for the requestor's configuration,"
    }
    /// Why a session being opened was abandoned, by which call.
    static let backedOut = "the user backed out (setSelectedProvider(nil))"
    /// See ``backedOut``.
    static let replacedByNewAuthentication = "a new authentication replaced it"
    /// See ``backedOut``.
    static let loggedOut = "the user logged out"
    /// See ``backedOut``.
    static let requestorChanged = "setRequestor changed the requestor; call getAuthentication() again"
    /// See ``backedOut``.
    static let released = "the app released the AccessEnabler"

    /// N005 or N500: a session abandoned before Adobe Pass answered.
    static func abandoned(_ subject: String, why: String) -> String {
        "\(subject) was abandoned before Adobe Pass answered: \(why)."
    }

    // MARK: The second screen and the redirect

    /// REGCODE: the code to enter on a second screen (`displayName` `nil`: the person also
    /// chooses the TV provider there), polled every `interval` seconds.
    static func signInOnSecondScreen(code: String, displayName: String?, interval: Int) -> String {
        let steps = displayName == nil ? "enter the code \(code) and choose your TV provider" : "enter the code \(code)"
        let who = displayName.map { "Sign in with \($0)" } ?? "Sign in"
        return "\(who) on a second screen: on a phone or computer, open the sign-in page and \(steps). "
            + "This device checks for the sign-in every \(interval) s until the code expires."
    }

    /// REG404: no poll answered for `silence` seconds.
    static func secondScreenUnreachable(code: String, silence: Int, interval: Int) -> String {
        "This device cannot reach Adobe Pass to check the sign-in with code \(code): no answer for \(silence) s. "
            + "Check the device's network connection; "
            + "the code stays valid until it expires, and this device keeps checking every \(interval) s."
    }

    /// REG200: polls answer again.
    static func secondScreenReachable(code: String) -> String {
        "This device reaches Adobe Pass again: the sign-in with code \(code) is being checked again."
    }

    /// N130: the code expired before the sign-in was completed.
    static func codeExpired(code: String, mvpd: String) -> String {
        "The sign-in for code \(code) (\(mvpd)) was not completed before the code expired. "
            + "Start again with getAuthentication()."
    }

    /// N130: Adobe Pass no longer knows the code's session.
    static func sessionGone(code: String, mvpd: String) -> String {
        "Adobe Pass no longer knows the authentication session of code \(code) (\(mvpd)). "
            + "Start again with getAuthentication()."
    }

    /// N130: `handleExternalURL` with nothing waiting for a redirect.
    static let nothingAwaitsRedirect =
        "handleExternalURL was called but no login or logout is waiting for a redirect; nothing changed."

    /// N500: `handleExternalURL` with a URL not under the redirect URL.
    static func notUnderRedirectURL(_ redirectURL: String) -> String {
        "handleExternalURL ignored a URL that is not under the redirect URL \(redirectURL); nothing changed."
    }

    // MARK: A new sign-in and the device's clock

    /// CFG100: the device's clock differs from Adobe's by `offset` seconds (to add).
    static func clockDifference(offset: TimeInterval) -> String {
        let direction = offset > 0 ? "behind" : "ahead of"
        return "This device's clock is \(duration(abs(offset))) \(direction) Adobe Pass's. "
            + "The SDK judges sign-ins with Adobe's time, but ask the user to set the correct date and time."
    }

    /// The details of ``clockDifference(offset:)``.
    static func clockOffsetDetails(_ offset: TimeInterval) -> String {
        "offset \(WholeNumber.clamped(offset) as Int) s"
    }

    /// CFG100: a new sign-in already over by the device's clock.
    static func signInAlreadyOver(mvpd: String) -> String {
        "The new sign-in with \(mvpd) is already over by this device's clock: "
            + "check the device's date and time, then sign in again."
    }

    /// CFG100: a new sign-in that starts more than `tolerance` seconds ahead of the device's clock.
    static func signInNotValidYet(mvpd: String, tolerance: Int) -> String {
        "The new sign-in with \(mvpd) is not valid yet by this device's clock "
            + "(it starts more than \(tolerance) s ahead of it): "
            + "check the device's date and time, then sign in again."
    }

    private static func duration(_ seconds: TimeInterval) -> String {
        if seconds >= 86_400 { return "\(WholeNumber.clamped(seconds / 86_400) as Int) day(s)" }
        if seconds >= 3_600 { return "\(WholeNumber.clamped(seconds / 3_600) as Int) hour(s)" }
        return "\(WholeNumber.clamped(seconds / 60) as Int) minute(s)"
    }

    // MARK: What a waiting authorization hears

    /// `tokenRequestFailed` of an authorization a later one replaced.
    static func authorizationReplaced(_ earlier: String, by resource: String) -> String {
        "getAuthorization(\(resource)) started a new authentication; \(earlier) was not authorized."
    }
    /// `tokenRequestFailed` of an authorization whose user logged out.
    static func loggedOutBeforeAuthorization(_ resource: String) -> String {
        "The user logged out before \(resource) could be authorized."
    }
    /// `tokenRequestFailed` of an authorization left with no flow.
    static func authenticationEndedWithoutSignIn(_ resource: String) -> String {
        "The authentication \(resource) was waiting for ended without a sign-in."
    }
    /// `tokenRequestFailed` of an authorization whose authentication could not start.
    static func authenticationCouldNotStart(_ resource: String, because reason: String) -> String {
        "The authentication \(resource) was waiting for could not start: \(reason)"
    }
    /// `tokenRequestFailed` of an authorization whose authentication setRequestor ended.
    static func requestorEndedAuthentication(_ resource: String) -> String {
        "setRequestor ended the authentication \(resource) was waiting for."
    }
    /// `tokenRequestFailed` of an authorization whose authentication failed.
    static func notAuthenticatedSoNotAuthorized(_ resource: String) -> String {
        "The user could not be authenticated, so \(resource) was not authorized."
    }
    /// `tokenRequestFailed` of an authorization the app's release ended.
    static func releasedBeforeAuthorization(_ resource: String) -> String {
        "The app released the AccessEnabler before \(resource) could be authorized."
    }

    /// N500: setRequestor ended the authentication in the SDK's hands.
    static let requestorEndedAuthenticationUnderWay =
        "setRequestor ended the authentication that was under way; call getAuthentication() again."
    /// N500: the app's release ended the authentication in the SDK's hands.
    static let releasedBeforeAuthenticationEnded =
        "The app released the AccessEnabler before this authentication ended."

    // MARK: Authorization

    /// N000: checkAuthorization of a user who is not authenticated.
    static func notAuthenticatedSoCannotAuthorize(_ resource: String) -> String {
        "The user is not authenticated, so \(resource) cannot be authorized."
    }
    /// `tokenRequestFailed` of a user who is not authenticated.
    static let notAuthenticated = "The user is not authenticated."
    /// N000: checkPreauthorizedResources of a user who is not authenticated.
    static let notAuthenticatedNothingPreauthorized = "The user is not authenticated: no resource is preauthorized."
    /// Z500: no decision for `resource` in the answer.
    static func noDecision(_ resource: String) -> String { "Adobe Pass returned no decision for \(resource)." }
    /// `tokenRequestFailed` of a resource with no decision.
    static let noDecisionReturned = "No decision was returned."
    /// Z010: authorized by a degradation rule.
    static func authorizedByDegradation(_ resource: String, mvpd: String) -> String {
        "\(mvpd) is degraded: \(resource) is authorized by a degradation rule."
    }
    /// Z011: authorized through TempPass.
    static func authorizedThroughTempPass(_ resource: String, mvpd: String) -> String {
        "\(resource) is authorized through TempPass (\(mvpd))."
    }
    /// Z500: an authorization with no media token.
    static func authorizedWithoutToken(_ resource: String) -> String {
        "Adobe Pass authorized \(resource) but sent no media token."
    }
    /// Z100: a denial with no words of the MVPD's.
    static func deniedByMVPD(_ resource: String) -> String { "The MVPD denied \(resource)." }
    /// N130: Adobe Pass no longer has the sign-in (`code`: its enhanced error's).
    static func signInNoLongerHeld(code: String) -> String {
        "Adobe Pass no longer has this sign-in (\(code)): "
            + "it was removed from this device; sign in again with getAuthentication()."
    }

    // MARK: Logout

    /// LOGOUT_PAGE: an MVPD logout page for the person to open on another device.
    static func logoutPageElsewhere(mvpd: String) -> String {
        "To finish signing out of \(mvpd), the person opens this page on a phone or computer "
            + "(show the URL or a QR code of it); nothing was opened on this device."
    }

    /// N500: Adobe Pass was not told of a logout (about `mvpd` when it is not the profile in
    /// force; `reason`: the failure's message).
    static func logoutUnconfirmed(mvpd: String?, reason: String) -> String {
        let whose = mvpd.map { " about \($0)" } ?? ""
        return
            "Signed out on this device, but Adobe Pass could not be told\(whose): \(reason) "
            + "The logout is sent again at the next setRequestor."
    }

    /// VSA203: still signed in at system level (`tvOS` names its settings' path).
    static func stillSignedInAtSystemLevel(tvOS: Bool) -> String {
        let settingsPath = tvOS ? "Settings -> Accounts -> TV Provider" : "Settings -> TV Provider"
        return
            "Signed out of this application. "
            + "The user is still signed in to the TV provider at system level and must sign out in \(settingsPath), "
            + "or the next launch signs them in again."
    }

    /// N408: the app did not come back from `mvpd`'s logout page within `timeout` seconds
    /// (`skipped`: the MVPDs whose pages were not opened).
    static func logoutPageTimedOut(mvpd: String, timeout: Int, skipped: [String]) -> String {
        let notOpened =
            skipped.isEmpty ? "" : " The logout pages of \(skipped.joined(separator: ", ")) were not opened."
        return
            "The app did not come back from the logout page of \(mvpd) within \(timeout) s "
            + "(handleExternalURL(_:) with the redirect URL): "
            + "the logout ended without it. The user is signed out at Adobe Pass and on this device.\(notOpened)"
    }

    // MARK: Metadata

    /// N500: getMetadata with an opcode the SDK does not know (`opcode` `nil`: none).
    static func unknownMetadataOpcode(_ opcode: String?) -> String {
        "getMetadata needs METADATA_OPCODE_KEY set to METADATA_AUTHENTICATION, "
            + "METADATA_AUTHORIZATION, METADATA_DEVICE_ID or METADATA_USER_META; "
            + "got \(opcode ?? "none")."
    }
}
