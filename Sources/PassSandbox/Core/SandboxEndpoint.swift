/// Every endpoint the sandbox serves, as named in fault injection and the request log.
public enum SandboxEndpoint: String, CaseIterable, Sendable {
    /// `POST /o/client/register` (DCR: client credentials).
    case dcrRegister
    /// `POST /o/client/token` (DCR: access token).
    case dcrToken
    /// `GET /api/v2/{serviceProvider}/configuration`.
    case configuration
    /// `POST /api/v2/{serviceProvider}/sessions`.
    case createSession
    /// `POST /api/v2/{serviceProvider}/sessions/{code}`.
    case resumeSession
    /// `GET /api/v2/{serviceProvider}/sessions/{code}`.
    case sessionInformation
    /// `GET /api/v2/authenticate/{serviceProvider}/{code}` (opened in a user agent).
    case authenticate
    /// The MVPD login page: `GET` shows the form, `POST` submits the credentials.
    case login
    /// `GET /api/v2/{serviceProvider}/profiles`.
    case profiles
    /// `GET /api/v2/{serviceProvider}/profiles/{mvpd}`.
    case profileForMVPD
    /// `GET /api/v2/{serviceProvider}/profiles/code/{code}`.
    case profileForCode
    /// `POST /api/v2/{serviceProvider}/sessions/sso/{partner}`.
    case partnerSession
    /// `POST /api/v2/{serviceProvider}/profiles/sso/{partner}`.
    case partnerProfile
    /// `POST /api/v2/{serviceProvider}/decisions/authorize/{mvpd}`.
    case authorize
    /// `POST /api/v2/{serviceProvider}/decisions/preauthorize/{mvpd}`.
    case preauthorize
    /// `GET /api/v2/{serviceProvider}/logout/{mvpd}`.
    case logout
    /// The MVPD logout page a `logout` action URL opens; it redirects to the redirect URL.
    case mvpdLogout
    /// `GET` / `POST /activate`: the second screen, where a person types the code shown on a TV.
    case activate
    /// `DELETE /reset-tempass/v3/reset`: Adobe's TempPass reset (a management API), which
    /// gives one device, or every device, a fresh TempPass.
    case resetTempPass
    /// `GET` / `DELETE /checklist`: the checklist monitor's report (a page, or JSON), and
    /// starting it over.
    case checklist
    /// `POST /tv-provider/device/code`: a device asks for a code to sign the household in
    /// to a TV provider (the device-level sign-in of `accessenabler provider-service`).
    case householdDeviceCode
    /// `POST /tv-provider/device/token`: the device polls for the household's sign-in.
    case householdToken
    /// `GET` / `POST /tv-provider`: where a person signs the device in with its code.
    case householdSignIn
    /// `POST /tv-provider/saml`: the household's SAML response to an Adobe Pass SAML request.
    case householdSAML
    /// `POST /tv-provider/revoke`: ends a household sign-in.
    case householdRevoke
}
