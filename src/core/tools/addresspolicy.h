#pragma once

#include <QString>

class QHostAddress;

namespace Sandpiper {

// Which addresses the web tools may connect to. A model that reads web pages can be talked
// into fetching anything (server-side request forgery), so only public addresses are allowed
// unless the user opens up their own networks.
class AddressPolicy
{
public:
    enum class Kind {
        Public,
        Unspecified,   // 0.0.0.0/8, ::
        Loopback,      // 127/8, ::1
        Private,       // 10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10
        LinkLocal,     // 169.254/16, fe80::/10
        SharedNat,     // 100.64/10 (carrier-grade NAT)
        CloudMetadata, // 169.254.169.254, fd00:ec2::254
        Multicast,     // 224/4, ff00::/8
        Reserved,      // broadcast, 240/4, documentation and benchmarking ranges, Teredo
    };

    explicit AddressPolicy(bool allowLocal = false);

    bool allows(const QHostAddress &address) const;

    // IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by
    // that IPv4 address, so ::ffff:127.0.0.1 is loopback.
    static Kind kindOf(const QHostAddress &address);
    // "a loopback address", for messages
    static QString describe(Kind kind);

private:
    bool m_allowLocal;
};

} // namespace Sandpiper
