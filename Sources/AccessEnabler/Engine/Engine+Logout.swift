import Foundation

extension EntitlementEngine {
    /// `logout`: the local profile goes first, whatever the network says; then Adobe Pass
    /// is told. An `appleSSO` profile ends with VSA203 (the system sign-in must be removed in
    /// the device's settings); a regular one navigates to the MVPD logout page on iOS.
    func logout() async {
        await perform(machine.logoutRequested())
        guard let requestor = requestorID else {
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
            return
        }
        guard let profile = currentProfile(requestor: requestor) else {
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
            return
        }
        store.removeProfile(requestor: requestor)
        let actions: [LogoutAction]
        do {
            actions = try await client(for: profile.mvpd).logout(serviceProvider: requestor, mvpd: profile.mvpd, redirectURL: configuration.redirectURL, context: context())
        } catch {
            emitStatus(StatusCatalog.status(.n500, message: "Signed out on this device, but Adobe Pass could not be told: \(error.message)"))
            if profile.type == .appleSSO { emitVSA203() }
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
            return
        }
        let action = actions.first(where: { $0.mvpd == profile.mvpd }) ?? actions.first
        if profile.type == .appleSSO || action?.actionName == .partnerLogout {
            emitVSA203()
            emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
            return
        }
        if configuration.platform == .iOS, let url = action?.url, !url.isEmpty {
            let absolute = URL(string: url, relativeTo: client(for: profile.mvpd).baseURL)?.absoluteString ?? url
            machine.logoutPageOpened()
            emitNavigation(to: absolute, mvpd: profile.mvpd)
            return
        }
        emit(.setAuthenticationStatus(ACCESS_ENABLER_STATUS_ERROR, errorCode: USER_NOT_AUTHENTICATED_ERROR))
    }

    private func emitVSA203() {
        let settings = configuration.platform == .tvOS ? "Settings -> Accounts -> TV Provider" : "Settings -> TV Provider"
        emitStatus(StatusCatalog.status(.vsa203, message: "Signed out of this application. The user is still signed in to the TV provider at system level and must sign out in \(settings), or the next launch signs them in again."))
    }
}
