select
    customer_id,
    customer_name,
    sum(amount) as total_amount
from {{ ref('stg_orders') }}
group by customer_id, customer_name
