/// Where the person chooses their TV provider when they sign in on a second screen
/// (``AccessEnablerConfiguration/loginScreen`` is ``AccessEnablerConfiguration/LoginScreen/secondScreen``).
public enum ProviderChoice: String, Sendable, Hashable, CaseIterable {
    /// On this device, as the legacy SDK did: `getAuthentication` ends in
    /// `displayProviderDialog` (or the partner framework's picker), the app answers with
    /// `setSelectedProvider`, and the registration code (status `REGCODE`) is for that
    /// provider.
    case onDevice
    /// On the second screen: `getAuthentication` asks Adobe Pass for a registration code at
    /// once (an authentication session with no provider, status `REGCODE`), with no provider
    /// dialog and no picker; the person chooses the provider on the activation page of the
    /// phone or computer, then signs in there. `getSelectedProvider` names the provider
    /// chosen once the sign-in is done. With ``AccessEnablerConfiguration/LoginScreen/thisDevice``
    /// it has no effect.
    case onSecondScreen
}
