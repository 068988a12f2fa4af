#!/bin/sh
# Roles and accounts of a BANG! deployment on Mosquitto's dynamic-security plugin (see
# mosquitto.conf), created through the running broker with mosquitto_ctrl.
#
#   ./setup-dynsec.sh GROUP
#
# GROUP: the hosts' cluster group (`bang host --cluster GROUP`). Environment:
#   MQTT_HOST, MQTT_PORT      the broker (default 127.0.0.1 1883)
#   ADMIN_USER, ADMIN_PASSWORD  the account made by `mosquitto_ctrl dynsec init`
#   HOST_PASSWORD             for `bang-host` (asked for when unset)
#   PLAYER_PASSWORD           for `bang-player` (default: bang; it is public anyway)
#
# bang-host may read every request (alone or in GROUP's shared subscription), talk to the
# other hosts of GROUP, read the lobby (the rooms the other hosts run), and publish everything
# a host publishes. bang-player may publish
# requests and discovery, and read the public topics and the outboxes. Mosquitto 2.0 has no
# %u substitution in the plugin's ACLs, and players share one account: each player could post
# into another's inbox or read another's outbox, which end-to-end encryption makes useless
# (the host refuses what does not open, outboxes are sealed). Nothing but bang-host may join
# a `$share/...` subscription or write a retained topic.
set -eu
GROUP=${1:?usage: setup-dynsec.sh GROUP}
: "${ADMIN_USER:=bang-admin}"
if [ -z "${HOST_PASSWORD:-}" ]; then
    printf 'password for bang-host: ' >&2
    read -r HOST_PASSWORD
fi
: "${PLAYER_PASSWORD:=bang}"

# mosquitto_ctrl warns on stderr about a connection without TLS: keep it for a failure.
ctrl() {
    if ! mosquitto_ctrl -h "${MQTT_HOST:-127.0.0.1}" -p "${MQTT_PORT:-1883}" \
            -u "$ADMIN_USER" ${ADMIN_PASSWORD:+-P "$ADMIN_PASSWORD"} dynsec "$@" 2>/dev/null; then
        echo "setup-dynsec.sh: mosquitto_ctrl dynsec $1 $2 failed" >&2
        exit 1
    fi
}

ctrl createRole bang-host
for filter in "\$share/$GROUP/bang/v2/c/+/in" "\$share/$GROUP/bang/v2/discover/+" \
        "\$share/$GROUP/bang/v1/c/+/in" "bang/v2/c/+/in" "bang/v2/discover/+" "bang/v1/c/+/in" \
        "bang/v2/hosts/$GROUP/+" "bang/v2/lobby/+"; do
    ctrl addRoleACL bang-host subscribePattern "$filter" allow
done
for topic in "bang/v2/#" "bang/v1/host" "bang/v1/c/+/out"; do
    ctrl addRoleACL bang-host publishClientSend "$topic" allow
done
ctrl createClient bang-host -p "$HOST_PASSWORD"
ctrl addClientRole bang-host bang-host

ctrl createRole bang-player
for filter in bang/v2/host "bang/v2/lobby/+" "bang/v2/room/+" "bang/v2/room/+/snap" \
        "bang/v2/c/+/out" bang/v1/host "bang/v1/c/+/out"; do
    ctrl addRoleACL bang-player subscribePattern "$filter" allow
done
for topic in "bang/v2/c/+/in" "bang/v2/discover/+" "bang/v1/c/+/in"; do
    ctrl addRoleACL bang-player publishClientSend "$topic" allow
done
ctrl createClient bang-player -p "$PLAYER_PASSWORD"
ctrl addClientRole bang-player bang-player
echo "bang-host and bang-player are ready for group $GROUP" >&2
