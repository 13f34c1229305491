#!/usr/bin/env bash
# trike_thinker.sh - a Trike engine in bash, written from protocol/SPEC.md alone.
#
# It plays legal Trike moves (size from `newgame ... options size=N`, `position start`
# only; it never plays the pie swap but follows the opponent's) and reports what it
# "searched" with structured info items (SPEC.md section 4): one ply deep, as many
# nodes as legal moves, the pv, and a score that gives the side to move a share
# growing with its mobility. It declares `feature nodes depth`: a one-ply search
# honours any node or depth limit.
#
# Usage: trike_thinker.sh [garbage]
#   garbage: before each move, also send info lines whose structured items are
#   malformed (they must be kept as text, not treated as a violation).

mode=${1:-}
size=9
seat=1
seed=0
players=2
have_game=0
game=""
moves=()

say() { printf '%s\n' "$*"; }

letters=abcdefghijklmnopqrs

# The legal moves of the position after "${moves[@]}", into the array `legal`.
legal_moves() {
    local -A occupied=()
    local pawn_r=-1 pawn_c=-1 m r c
    for m in "${moves[@]}"; do
        [ "$m" = swap ] && continue
        r=$(( $(expr index "$letters" "${m:0:1}") - 1 ))
        c=$(( ${m:1} - 1 ))
        occupied["$r,$c"]=1
        pawn_r=$r
        pawn_c=$c
    done
    legal=()
    if [ "$pawn_r" -lt 0 ]; then
        for (( r = 0; r < size; r++ )); do
            for (( c = 0; c <= r; c++ )); do
                legal+=("${letters:r:1}$(( c + 1 ))")
            done
        done
        return
    fi
    local d dr dc
    local -a drs=(0 0 -1 -1 1 1) dcs=(-1 1 -1 0 0 1)
    for d in 0 1 2 3 4 5; do
        dr=${drs[d]}
        dc=${dcs[d]}
        r=$(( pawn_r + dr ))
        c=$(( pawn_c + dc ))
        while [ "$r" -ge 0 ] && [ "$r" -lt "$size" ] && [ "$c" -ge 0 ] && [ "$c" -le "$r" ] \
            && [ -z "${occupied[$r,$c]:-}" ]; do
            legal+=("${letters:r:1}$(( c + 1 ))")
            r=$(( r + dr ))
            c=$(( c + dc ))
        done
    done
}

go() {
    if [ "$have_game" != 1 ]; then
        say "error no game: send newgame first"
        return
    fi
    legal_moves
    local count=${#legal[@]}
    if [ "$count" -eq 0 ]; then
        say "resign"
        return
    fi
    local pick=${legal[$(( (seed + ${#moves[@]}) % count ))]}
    # The side to move is seat (ply mod 2) + 1; its share grows with its mobility.
    local mover=$(( ${#moves[@]} % 2 )) share=$(( 400 + (count > 50 ? 50 : count) * 4 ))
    local scores
    if [ "$mover" -eq 0 ]; then scores="$share,$(( 1000 - share ))"; else scores="$(( 1000 - share )),$share"; fi
    if [ "$mode" = garbage ]; then
        say "info depth deep score 600,300 pv"
        say "info nodes -5 string the items before this tail are malformed"
    fi
    say "info depth 1 seldepth 1 nodes $count nps $(( count * 1000 )) time 1 score $scores pv $pick string bash"
    say "move $pick"
}

while IFS= read -r line; do
    read -r -a w <<< "$line"
    [ "${#w[@]}" -eq 0 ] && continue
    case "${w[0]}" in
        rgp)
            if [ "${w[1]:-}" = 1 ]; then
                say "id name trike-thinker-sh"
                say "id author referee tests"
                say "feature nodes depth"
                say "rgpok"
            else
                say "error unsupported protocol version"
            fi
            ;;
        newgame)
            have_game=0
            for (( i = 1; i + 1 < ${#w[@]}; i += 2 )); do
                case "${w[i]}" in
                    game) game=${w[i+1]} ;;
                    players) players=${w[i+1]} ;;
                    seat) seat=${w[i+1]} ;;
                    seed) seed=${w[i+1]} ;;
                    options)
                        IFS=, read -r -a pairs <<< "${w[i+1]}"
                        for pair in "${pairs[@]}"; do
                            [ "${pair%%=*}" = size ] && size=${pair#*=}
                        done
                        ;;
                esac
            done
            if [ "$game" != trike ] || [ "$players" != 2 ]; then
                say "error this engine plays 2-player trike only"
            else
                have_game=1
                say "ok"
            fi
            ;;
        position)
            if [ "${w[1]}" != start ]; then
                have_game=0  # no encoded positions: the next go is refused
            fi
            moves=("${w[@]:3}")
            ;;
        go) go ;;
        ping) say "pong ${w[1]}" ;;
        quit) exit 0 ;;
        setoption | gameover) ;;
        *) say "error unknown command ${w[0]}" ;;
    esac
done
