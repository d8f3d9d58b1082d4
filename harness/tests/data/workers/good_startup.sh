#!/bin/sh
# A well-behaved --startup-only worker.
printf '%s\n' '{"language":"c","algorithm":"quick","order":"random","size":4000,"seed":2463534242,"sorts":1,"startup_only":true,"input_hash":"9f662f292f0c2286","runtime":"sh fake"}'
