import Foundation

/// `/tv-provider`: where a person signs the whole device in to their TV provider, on a
/// phone or a computer, with the code the device shows (its "Settings → TV Provider").
extension SandboxEngine {
    /// `GET /tv-provider` shows the code form (`?code=` pre-fills it). `POST /tv-provider`
    /// (form `code`, then `choice`, then `username` and `password`):
    /// - an empty, unknown, expired or already answered code shows the form again with an error;
    /// - a code alone shows the provider choice: the providers the device asked for (featured
    ///   first), "Other TV Provider" and "Cancel";
    /// - `choice=other` or `choice=cancel` ends the sign-in with that answer;
    /// - a provider the platform does not board for single sign-on ends it with that choice
    ///   (the device learns it, no sign-in is kept);
    /// - any other provider shows its login form; correct credentials sign the device in and
    ///   end on the "your TV is signed in" page, wrong ones show the form again.
    func householdSignInPage(_ request: SandboxRequest, now: Date) -> SandboxResponse {
        guard request.method.uppercased() == "POST" else {
            let prefilled = request.queryValue("code").map {
                Self.displayedHouseholdCode(Self.normalizedHouseholdCode($0))
            }
            return .html(Self.householdCodePage(code: prefilled ?? "", error: nil))
        }
        let form = formParameters(request)
        let typed = form["code"] ?? ""
        let code = Self.normalizedHouseholdCode(typed)
        guard !code.isEmpty else {
            return .html(Self.householdCodePage(code: typed, error: "Type the code shown on your TV."))
        }
        guard var record = householdRequests[code] else {
            return .html(
                Self.householdCodePage(
                    code: typed,
                    error: "The code \(typed) is not one this TV provider service issued. Check it and type it again."))
        }
        guard now < record.expiresAt else {
            return .html(
                Self.householdCodePage(code: typed, error: "The code \(typed) has expired. Ask your TV for a new one."))
        }
        guard record.outcome == nil else {
            return .html(
                Self.householdCodePage(
                    code: typed,
                    error: "The code \(typed) was already used. Ask your TV for a new one if it is not signed in."))
        }
        let choices = householdChoices(record)
        guard let choice = form["choice"] else {
            return .html(Self.householdChoicePage(code: code, providers: choices, error: nil))
        }
        switch choice {
        case "cancel":
            record.outcome = .cancelled
            householdRequests[code] = record
            return .html(
                Self.householdEndedPage(
                    headline: "Sign-in cancelled", detail: "Your TV stays signed out of any TV provider."))
        case "other":
            record.outcome = .otherProvider
            householdRequests[code] = record
            return .html(
                Self.householdEndedPage(
                    headline: "Another TV provider",
                    detail:
                        "Your TV provider does not sign TVs in here. Each app will offer you its own way to sign in."))
        default:
            break
        }
        guard let provider = choices.first(where: { $0.id == choice }) else {
            return .html(
                Self.householdChoicePage(
                    code: code, providers: choices,
                    error: "\(SignInRefusal.shown(choice)) is not offered here. Choose one of the list."))
        }
        guard provider.boarded else {
            record.outcome = .chosenOnly(provider: provider.id)
            householdRequests[code] = record
            return .html(
                Self.householdEndedPage(
                    headline: "\(provider.displayName) chosen",
                    detail:
                        "\(provider.displayName) does not sign TVs in here: the app you are using continues with its "
                        + "own sign-in."
                ))
        }
        guard let username = form["username"], let password = form["password"] else {
            return .html(
                Self.householdLoginPage(
                    code: code, provider: provider, users: householdTestUsers(provider.id), error: nil))
        }
        guard let user = householdUser(provider: provider.id, username: username, password: password) else {
            return .html(
                Self.householdLoginPage(
                    code: code, provider: provider, users: householdTestUsers(provider.id),
                    error: "Wrong username or password. Try again."))
        }
        record.outcome = .signedIn(provider: provider.id, username: user.username)
        householdRequests[code] = record
        return .html(Self.householdSignedInPage(provider: provider))
    }

    /// The test users of every MVPD mapped to `provider`, each once.
    private func householdTestUsers(_ provider: String) -> [SandboxUser] {
        var seen: Set<String> = []
        return world.serviceProviders.flatMap(\.mvpds).filter { $0.platformMappingId == provider }.flatMap(\.users)
            .filter { seen.insert($0.username).inserted }
    }
}
