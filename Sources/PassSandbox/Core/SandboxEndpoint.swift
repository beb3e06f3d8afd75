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
}
