#!/bin/sh
# Makes the demo's sample photos (small, real files; total well under 300 KB).
# Tools (Debian): apt-get install -y imagemagick libimage-exiftool-perl libheif-examples
# Run from anywhere: sh test/demo/samples/make-samples.sh
#
#   booth-0001.jpg   JPEG, EXIF DateTimeOriginal 2026:06:20 18:30:05 +02:00
#   booth-0002.jpg   JPEG, EXIF DateTimeOriginal 2026:06:20 18:31:40 +02:00, SubSec 250
#   booth-0003.jpg   JPEG without any EXIF (nothing to read a capture time from)
#   confetti.png     PNG with an eXIf chunk, DateTimeOriginal 2026:06:20 21:05:00 +02:00
#   first-dance.heic HEIC made by libheif from a JPEG with EXIF (DateTimeOriginal 2026:06:20 22:10:30)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# card <out> <from colour> <to colour> <title> <subtitle>
card() {
	convert -size 480x320 "gradient:$2-$3" \
		-fill 'rgba(255,255,255,0.18)' -draw 'circle 390,70 470,70' -draw 'circle 80,270 150,270' \
		-font DejaVu-Sans-Bold -pointsize 40 -fill white -gravity center -annotate +0-20 "$4" \
		-font DejaVu-Sans -pointsize 20 -fill 'rgba(255,255,255,0.9)' -annotate +0+30 "$5" \
		"$1"
}

card "$tmp/b1.png" '#6d28d9' '#db2777' 'Photo booth #1' "Anna & Ben's Wedding"
card "$tmp/b2.png" '#0e7490' '#6d28d9' 'Photo booth #2' 'Cheese!'
card "$tmp/b3.png" '#b45309' '#be123c' 'Photo booth #3' 'No EXIF in this one'
card "$tmp/c.png" '#15803d' '#0e7490' 'Confetti' 'PNG with eXIf'
card "$tmp/d.png" '#1e3a8a' '#9d174d' 'First dance' 'HEIC from the phone'

convert "$tmp/b1.png" -strip -quality 72 booth-0001.jpg
convert "$tmp/b2.png" -strip -quality 72 booth-0002.jpg
convert "$tmp/b3.png" -strip -quality 72 booth-0003.jpg
convert "$tmp/c.png" -strip -depth 8 -colors 64 PNG8:confetti.png
convert "$tmp/d.png" -strip -quality 80 "$tmp/d.jpg"

exiftool -q -overwrite_original -Make='EventPics demo' -Model='Booth 1' \
	-DateTimeOriginal='2026:06:20 18:30:05' -OffsetTimeOriginal='+02:00' booth-0001.jpg
exiftool -q -overwrite_original -Make='EventPics demo' -Model='Booth 1' \
	-DateTimeOriginal='2026:06:20 18:31:40' -SubSecTimeOriginal=250 -OffsetTimeOriginal='+02:00' booth-0002.jpg
exiftool -q -overwrite_original -DateTimeOriginal='2026:06:20 21:05:00' -OffsetTimeOriginal='+02:00' confetti.png
exiftool -q -overwrite_original -Make='EventPics demo' -Model='Phone' \
	-DateTimeOriginal='2026:06:20 22:10:30' -OffsetTimeOriginal='+02:00' "$tmp/d.jpg"
heif-enc -q 45 -o first-dance.heic "$tmp/d.jpg" >/dev/null

ls -l booth-0001.jpg booth-0002.jpg booth-0003.jpg confetti.png first-dance.heic
du -cb booth-0001.jpg booth-0002.jpg booth-0003.jpg confetti.png first-dance.heic | tail -1
