#!/bin/sh
# A well-behaved sorting worker: one line, the C worker's known answer for
# quick sort on 4,000 random elements.
printf '%s\n' '{"language":"c","algorithm":"quick","order":"random","size":4000,"seed":2463534242,"sorts":1,"comparisons":55119,"writes":56984,"input_hash":"9f662f292f0c2286","loop_ns":183220,"sorted":true,"runtime":"sh fake"}'
